package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// jsonError places a JSON decoding error at its line and column ("file:3:14: …"), which is
// what an editor jumps to; encoding/json only gives a byte offset.
func jsonError(file string, data []byte, err error) *Error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return &Error{File: file, Problem: "invalid JSON: " + err.Error()}
	}
	line, col := position(data, int(off))
	return &Error{File: fmt.Sprintf("%s:%d:%d", file, line, col), Problem: "invalid JSON: " + err.Error()}
}

// position is the 1-based line and column (in bytes) of an offset; encoding/json's offset
// points just past the offending byte, so the column names that byte.
func position(data []byte, off int) (line, col int) {
	if off > 0 {
		off-- // the offending byte
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
