package summary

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// WriteJSON writes the summary: its head's fields, then "sites", one site
// a line, streamed from the spool.
func (s *Summary) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	head, err := json.MarshalIndent(s.Fleet, "", "  ")
	if err != nil {
		return err
	}
	// The head's closing brace gives way to the sites.
	head = bytes.TrimSuffix(bytes.TrimRight(head, "\n"), []byte("}"))
	head = bytes.TrimRight(head, "\n ")
	bw.Write(head)
	bw.WriteString(",\n  \"sites\": [")
	first := true
	err = s.Each(func(site Site) error {
		b, err := json.Marshal(site)
		if err != nil {
			return err
		}
		if !first {
			bw.WriteString(",")
		}
		first = false
		bw.WriteString("\n    ")
		_, err = bw.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	if !first {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

// Read reads a JSON summary: it decodes the head, hands it to head, then
// passes each site's line to site as it is decoded (the lines are not
// kept). The sites must come last, as WriteJSON writes them. Either
// callback may be nil.
func Read(r io.Reader, head func(*Fleet) error, site func(Site) error) (*Fleet, error) {
	dec := json.NewDecoder(bufio.NewReader(r))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errNotSummary(err)
	}
	fields := map[string]json.RawMessage{}
	var f *Fleet
	for dec.More() && f == nil {
		t, err := dec.Token()
		if err != nil {
			return nil, errNotSummary(err)
		}
		if key, _ := t.(string); key != "sites" {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, errNotSummary(err)
			}
			fields[key] = v
			continue
		}
		if f, err = decodeHead(fields); err != nil {
			return nil, err
		}
		if head != nil {
			if err := head(f); err != nil {
				return nil, err
			}
		}
		if err := readSites(dec, site); err != nil {
			return nil, err
		}
	}
	if f == nil {
		return nil, errNotSummary(errors.New("it lists no sites"))
	}
	return f, nil
}

func decodeHead(fields map[string]json.RawMessage) (*Fleet, error) {
	raw, _ := json.Marshal(fields)
	var f Fleet
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, errNotSummary(err)
	}
	if f.Kind != Kind {
		return nil, errors.New("not a fleet summary (conformance fleet's fleet.json): its kind is not " + Kind)
	}
	if f.FormatVersion > FormatVersion {
		return nil, fmt.Errorf("a fleet summary of format %d, newer than this suite reads (%d)", f.FormatVersion, FormatVersion)
	}
	return &f, nil
}

func readSites(dec *json.Decoder, site func(Site) error) error {
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return errNotSummary(err)
	}
	for dec.More() {
		var s Site
		if err := dec.Decode(&s); err != nil {
			return errNotSummary(err)
		}
		if site == nil {
			continue
		}
		if err := site(s); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

func errNotSummary(err error) error {
	if err == nil {
		err = errors.New("it is not a JSON object")
	}
	return fmt.Errorf("not a fleet summary: %w", err)
}

// ReadFile reads a JSON summary file (Read).
func ReadFile(path string, head func(*Fleet) error, site func(Site) error) (*Fleet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, err := Read(f, head, site)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}
