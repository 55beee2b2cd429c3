package store

import (
	"encoding/json"

	"kudos"
)

// linesValue is an invoice's lines as the jsonb columns keep them: NULL
// for an invoice of one line (issue 38).
func linesValue(lines []kudos.InvoiceLine) any {
	if len(lines) == 0 {
		return nil
	}
	b, err := json.Marshal(lines)
	if err != nil { // a slice of plain structs always marshals
		return nil
	}
	return string(b)
}

// scanLines reads what linesValue wrote (nil for NULL).
func scanLines(b []byte) ([]kudos.InvoiceLine, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var lines []kudos.InvoiceLine
	if err := json.Unmarshal(b, &lines); err != nil {
		return nil, wrapErr(err)
	}
	return lines, nil
}
