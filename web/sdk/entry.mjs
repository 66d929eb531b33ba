// The page needs only the client (inside Discord) and its mock (outside, in the demo).
export { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
