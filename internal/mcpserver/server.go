// Package mcpserver is the agent (MCP) face of doctrust: three tools that
// upload local files to the doctrust HTTP API and summarise its answer.
// It runs no engine of its own (SPEC.md item 13); its version is the engine
// version it wraps, taken from the same constant the API reports.
package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server's MCP implementation name.
const Name = "doctrust"

// InspectArgs are inspect_document's arguments.
type InspectArgs struct {
	Path   string `json:"path" jsonschema:"absolute path of the PDF, Office document or image to inspect"`
	Issuer string `json:"issuer,omitempty" jsonschema:"optional issuer slug whose structural baseline the PDF is compared with"`
	Triage bool   `json:"triage,omitempty" jsonschema:"optional: analyse PDF structure and metadata only, without the page content walk"`
}

// RedactionArgs are check_redaction's arguments.
type RedactionArgs struct {
	Path string `json:"path" jsonschema:"absolute path of the PDF whose redactions are checked"`
}

// CompareArgs are compare_documents' arguments.
type CompareArgs struct {
	Original  string `json:"original" jsonschema:"absolute path of the reference PDF"`
	Candidate string `json:"candidate" jsonschema:"absolute path of the PDF compared against it"`
}

// New returns the MCP server with its three tools bound to c.
func New(c *Client) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Version: report.EngineVersion}, nil)
	mcp.AddTool(s, &mcp.Tool{
		Name: "inspect_document",
		Description: "Inspect a PDF, Office document or image for fraud-risk signals with the doctrust API. " +
			"Returns risk signals, a score and a band: never a verdict. Payloads of attacker-authored text are always elided.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in InspectArgs) (*mcp.CallToolResult, any, error) {
		rep, err := c.Inspect(ctx, in.Path, in.Issuer, in.Triage)
		if err != nil {
			return toolError(err, c.APIKey != "")
		}
		return text(inspectSummary(rep)), rep, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name: "check_redaction",
		Description: "Check whether a PDF's redactions hide what they appear to hide: text left under redaction boxes, " +
			"hidden text and content painted over, as found by the doctrust API. No page is rendered.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in RedactionArgs) (*mcp.CallToolResult, any, error) {
		rep, err := c.Inspect(ctx, in.Path, "", false)
		if err != nil {
			return toolError(err, c.APIKey != "")
		}
		return text(redactionSummary(rep)), rep, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name: "compare_documents",
		Description: "Compare a candidate PDF with an original using the doctrust API: whether the candidate extends, " +
			"truncates or rewrites it, and what changed structurally. Needs an API key (DOCTRUST_API_KEY).",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in CompareArgs) (*mcp.CallToolResult, any, error) {
		if c.APIKey == "" {
			return errorResult("compare_documents needs an API key: set DOCTRUST_API_KEY for this server " +
				"(comparison has no anonymous allowance)"), nil, nil
		}
		rep, err := c.Compare(ctx, in.Original, in.Candidate)
		if err != nil {
			return toolError(err, true)
		}
		return text(compareSummary(rep)), rep, nil
	})
	return s
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func errorResult(s string) *mcp.CallToolResult {
	r := text(s)
	r.IsError = true
	return r
}

// toolError turns a refused path or an API error into a tool error an agent
// can act on; anything else (the API unreachable) is said plainly too.
func toolError(err error, keyed bool) (*mcp.CallToolResult, any, error) {
	var fe *FileError
	if errors.As(err, &fe) {
		return errorResult("refused before upload: " + fe.Reason), nil, nil
	}
	var ae *APIError
	if errors.As(err, &ae) {
		return errorResult(apiErrorText(ae, keyed)), nil, nil
	}
	return errorResult("the doctrust API could not be reached: " + err.Error()), nil, nil
}

func apiErrorText(e *APIError, keyed bool) string {
	switch {
	case e.Code == "rate_limited" && !keyed:
		return fmt.Sprintf("the anonymous allowance is used up (429 rate_limited); retry in %s, or set DOCTRUST_API_KEY", seconds(e.RetryAfter))
	case e.Code == "rate_limited":
		return fmt.Sprintf("rate limited (429); retry in %s", seconds(e.RetryAfter))
	case e.Code == "quota_exceeded":
		return "the account's monthly quota is exhausted (429 quota_exceeded); retrying will not help before the quota resets or the plan changes"
	case e.Status == 503:
		if e.RetryAfter > 0 {
			return fmt.Sprintf("the service is busy (503 %s); retry in %s", e.Code, seconds(e.RetryAfter))
		}
		return fmt.Sprintf("the service is unavailable (503 %s); retry in a minute", e.Code)
	case e.Code == "invalid_api_key":
		return "DOCTRUST_API_KEY was refused (401 invalid_api_key)"
	case e.Code == "file_too_large":
		return fmt.Sprintf("the file is over the service's upload cap of %v MB (413)", e.Body["maxMb"])
	case e.Code == "not_a_pdf":
		return "the file is not in a format the service reads (422 not_a_pdf)"
	case e.Code == "analysis_timeout":
		return "the document exhausted the analysis time budget (422 analysis_timeout); retrying is pointless"
	}
	return fmt.Sprintf("the doctrust API answered %d %s", e.Status, e.Code)
}

// seconds says a wait in words: "1 second", "5 seconds".
func seconds(n int) string {
	if n == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%d seconds", n)
}
