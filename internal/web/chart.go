package web

import (
	"fmt"
	"html/template"
	"strconv"
	"time"

	"github.com/doctrust/doctrust/internal/accounts"
	"github.com/doctrust/doctrust/internal/plans"
)

// accountView is account.html's data.
type accountView struct {
	SignedIn bool
	Me       accounts.Me
	Usage    accounts.UsageReport
	Chart    chart
	// Billing: checkout and the portal can open.
	Billing bool
	// Free: credit packs are offered (Free plan only).
	Free bool
	// UsageLine is the month in one sentence whose parts add up.
	UsageLine string
	// Plan is the account's row of the plan table; Plans the whole table
	// in quota order (the billing page), Packs the credit packs;
	// BaselinePlan the smallest plan that trains baselines.
	Plan         plans.Plan
	Plans        []plans.Plan
	Packs        []plans.Pack
	BaselinePlan plans.Plan
}

// usageLine says the month's documents so that the parts add up: the
// three bands, and the documents that carry none (metadata listings and
// comparisons), which the chart draws in grey.
func usageLine(u accounts.UsageReport) string {
	low, elevated, high := u.Bands["low"], u.Bands["elevated"], u.Bands["high"]
	s := count(u.Documents, "document", "documents")
	if u.Credit > 0 {
		s += " (" + strconv.Itoa(u.Credit) + " paid from credits)"
	}
	if u.Documents == 0 {
		return s + " this month."
	}
	s += fmt.Sprintf(": %d low, %d elevated, %d high", low, elevated, high)
	if rest := u.Documents - low - elevated - high; rest > 0 {
		s += fmt.Sprintf(", %d without a band (metadata listings and comparisons)", rest)
	}
	return s + "."
}

// chart is the month's usage as stacked bars, one per day, measured here
// so the template only places rectangles.
type chart struct {
	Width, Height int
	Bars          []bar
	Max           int
	Empty         bool
}

type bar struct {
	X, W     int
	Label    string // day of month, under some bars
	Title    string // tooltip: date and counts
	Segments []segment
}

type segment struct {
	Y, H int
	Band string // low | elevated | high | unbanded
}

const (
	chartWidth  = 640
	chartHeight = 180
	chartTop    = 10
	chartBottom = 20 // room for day labels
)

// usageChart lays out one bar per day of the report's month; a day's bar
// stacks its low, elevated and high documents, and documents without a
// band (a failed analysis is never billed, but credit rows may lack one)
// on top.
func usageChart(u accounts.UsageReport) chart {
	month, err := time.Parse("2006-01", u.Month)
	if err != nil {
		return chart{Width: chartWidth, Height: chartHeight, Empty: true}
	}
	days := month.AddDate(0, 1, -1).Day()
	byDate := map[string]accounts.Day{}
	maxDocs := 0
	for _, d := range u.Days {
		byDate[d.Date] = d
		maxDocs = max(maxDocs, d.Documents)
	}
	c := chart{Width: chartWidth, Height: chartHeight, Max: maxDocs, Empty: maxDocs == 0}
	slot := chartWidth / days
	plot := chartHeight - chartTop - chartBottom
	for i := range days {
		date := month.AddDate(0, 0, i).Format("2006-01-02")
		d := byDate[date]
		b := bar{X: i*slot + 1, W: slot - 2, Title: fmt.Sprintf("%s: %s", date, documents(d.Documents))}
		if i == 0 || (i+1)%5 == 0 {
			b.Label = strconv.Itoa(i + 1)
		}
		if d.Documents > 0 {
			b.Title += fmt.Sprintf(" (low %d, elevated %d, high %d)", d.Bands["low"], d.Bands["elevated"], d.Bands["high"])
			// Edges from running totals, so rounding never loses a pixel
			// of the stack.
			base := chartTop + plot
			edge := func(docs int) int { return base - docs*plot/maxDocs }
			done := 0
			for _, band := range []string{"low", "elevated", "high", "unbanded"} {
				n := d.Bands[band]
				if band == "unbanded" {
					n = d.Documents - done
				}
				if n <= 0 {
					continue
				}
				lo, hi := edge(done), edge(done+n)
				done += n
				b.Segments = append(b.Segments, segment{Y: hi, H: max(1, lo-hi), Band: band})
			}
		}
		c.Bars = append(c.Bars, b)
	}
	return c
}

var funcs = template.FuncMap{
	"add":   func(a, b int) int { return a + b },
	"count": count,
	"date": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02")
	},
}

// documents counts documents in words: "1 document", "3 documents".
func documents(n int) string { return count(n, "document", "documents") }

// count says n with its noun in n's grammar, as common.js's dt.count
// does for the pages' scripts.
func count(n int, one, other string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + other
}
