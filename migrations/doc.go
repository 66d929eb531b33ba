// Package migrations holds the database schema of the Pontoon bot as numbered
// goose SQL files (00001_init.sql, 00002_..., each with a "-- +goose Up" and a
// "-- +goose Down" section) and exports them as one embedded file system.
//
// It exists as its own tiny package because go:embed cannot reach a parent
// folder: the store package imports FS and hands it to goose, which applies
// every pending file in order, each in its own transaction.
//
// To change the schema, add the next numbered file; never edit a file that has
// been released, because databases in the field have already applied it.
package migrations
