package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/metadata"
	"github.com/doctrust/doctrust/scripts/internal/bench"
)

// listInProcess is the median of n listings of one file as the service
// runs it per request (engine.Metadata, no process start), after one
// untimed listing; the report is nil for an unreadable file.
func listInProcess(path string, n int) (*metadata.Report, time.Duration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	rep, err := engine.Metadata(context.Background(), data, engine.Options{})
	if errors.Is(err, engine.ErrUnreadable) {
		rep = nil
	} else if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	ds := make([]time.Duration, 0, n)
	for range n {
		t0 := time.Now()
		engine.Metadata(context.Background(), data, engine.Options{})
		ds = append(ds, time.Since(t0))
	}
	return rep, bench.Median(ds), nil
}

// exifGroups are the exiftool family-1 groups the listing names the same way.
var exifGroups = map[string]bool{"IFD0": true, "ExifIFD": true, "GPS": true, "InteropIFD": true, "IFD1": true}

type agreement struct{ same, differ, missing int }

func (a *agreement) add(b agreement) {
	a.same += b.same
	a.differ += b.differ
	a.missing += b.missing
}

// readExiftool reads `exiftool -j -a -G1` output by cleaned SourceFile;
// a missing file (the step is optional) gives an empty map.
func readExiftool(path string) (map[string]map[string]any, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var docs []map[string]any
	if err := json.Unmarshal(b, &docs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := make(map[string]map[string]any, len(docs))
	for _, d := range docs {
		if src, ok := d["SourceFile"].(string); ok {
			out[filepath.Clean(src)] = d
		}
	}
	return out, nil
}

// compare counts how many of exiftool's values in the EXIF groups the
// listing gives equal (as text, or as the same number), differently, or
// not at all. Binary blocks are left out.
func compare(et map[string]any, rep *metadata.Report) agreement {
	ours := map[string]string{}
	for _, c := range rep.Containers {
		if c.Part != "" {
			continue
		}
		for _, e := range c.Entries {
			if _, dup := ours[c.Name+":"+e.Key]; !dup {
				ours[c.Name+":"+e.Key] = e.Value
			}
		}
	}
	var a agreement
	for k, v := range et {
		group, _, ok := strings.Cut(k, ":")
		if !ok || !exifGroups[group] {
			continue
		}
		want := fmt.Sprint(v)
		if strings.HasPrefix(want, "(Binary data") {
			continue
		}
		got, ok := ours[k]
		switch {
		case !ok:
			a.missing++
		case got == want || sameNumber(got, want):
			a.same++
		default:
			a.differ++
		}
	}
	return a
}

func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}
