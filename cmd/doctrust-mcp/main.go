// Command doctrust-mcp is the doctrust MCP server for agents, on stdio. It
// is a thin client of the doctrust HTTP API (DOCTRUST_API_URL, default the
// local server; DOCTRUST_API_KEY optional). It reads only regular files
// inside DOCTRUST_MCP_ROOTS (default: the folder it was started in).
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/doctrust/doctrust/internal/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := mcpserver.New(clientFromEnv(os.Getenv)).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "doctrust-mcp:", err)
		os.Exit(1)
	}
}

func clientFromEnv(getenv func(string) string) *mcpserver.Client {
	base := getenv("DOCTRUST_API_URL")
	if base == "" {
		base = "http://127.0.0.1:8080"
	}
	maxMB, err := strconv.Atoi(getenv("DOCTRUST_MAX_UPLOAD_MB"))
	if err != nil || maxMB <= 0 {
		maxMB = 10
	}
	return &mcpserver.Client{
		BaseURL:   base,
		APIKey:    getenv("DOCTRUST_API_KEY"),
		MaxUpload: int64(maxMB) << 20,
		HTTP:      &http.Client{Timeout: 2 * time.Minute},
		Roots:     mcpserver.RootsFromEnv(getenv("DOCTRUST_MCP_ROOTS")),
	}
}
