package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/accounts"
	"github.com/doctrust/doctrust/internal/baselines"
	"github.com/doctrust/doctrust/internal/billing"
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/webhook"
)

// Code is an error code of SPEC.md's Errors table. Handlers return an
// *Error; the table below is the one place that maps codes to statuses, so
// a handler never picks a status for an error itself.
type Code string

const (
	NoFile           Code = "no_file"
	InvalidRequest   Code = "invalid_request"
	InvalidToken     Code = "invalid_token"
	InvalidAPIKey    Code = "invalid_api_key"
	InvalidLogin     Code = "invalid_credentials"
	EmailTaken       Code = "email_taken"
	MailUnavailable  Code = "mail_unavailable"
	NotAuthenticated Code = "not_authenticated"
	OriginNotAllowed Code = "origin_not_allowed"
	PlanRequired     Code = "plan_required"
	NotFound         Code = "not_found"
	MethodNotAllowed Code = "method_not_allowed"
	FileTooLarge     Code = "file_too_large"
	BodyTooLarge     Code = "body_too_large"
	NotAPDF          Code = "not_a_pdf"
	AnalysisTimeout  Code = "analysis_timeout"
	InvalidIssuer    Code = "invalid_issuer"
	InvalidPolicy    Code = "invalid_policy"
	ProfileRejected  Code = "profile_rejected"
	QuotaExceeded    Code = "quota_exceeded"
	RateLimited      Code = "rate_limited"
	Busy             Code = "busy"
	RequestTimeout   Code = "request_timeout"
	StoreUnavailable Code = "store_unavailable"
	Internal         Code = "internal_error"
	// billing
	InvalidSignature      Code = "invalid_signature"
	PlanAlreadyActive     Code = "plan_already_active"
	SubscriptionActive    Code = "subscription_active"
	FreePlanOnly          Code = "free_plan_only"
	NoBillingCustomer     Code = "no_billing_customer"
	PaymentProcessorError Code = "payment_processor_error"
	BillingUnavailable    Code = "billing_unavailable"
	// supplier ledger
	InvalidIngestSecret Code = "invalid_ingest_secret"
	IngestUnavailable   Code = "ingest_unavailable"
	UnparseableMessage  Code = "unparseable_message"
	// ReadError is the CLI's alone (doctrust inspect PATH...): a path that
	// could not be read. No HTTP route answers it.
	ReadError Code = "read_error"
)

// StoreRetryAfter is store_unavailable's retryAfterSeconds, busy's: a
// local store restarted empty is usable again at the next call.
const StoreRetryAfter = 5

var statuses = map[Code]int{
	NoFile:           http.StatusBadRequest,
	InvalidRequest:   http.StatusBadRequest,
	InvalidToken:     http.StatusBadRequest,
	InvalidAPIKey:    http.StatusUnauthorized,
	InvalidLogin:     http.StatusUnauthorized,
	EmailTaken:       http.StatusConflict,
	MailUnavailable:  http.StatusServiceUnavailable,
	NotAuthenticated: http.StatusUnauthorized,
	OriginNotAllowed: http.StatusForbidden,
	PlanRequired:     http.StatusForbidden,
	NotFound:         http.StatusNotFound,
	MethodNotAllowed: http.StatusMethodNotAllowed,
	FileTooLarge:     http.StatusRequestEntityTooLarge,
	BodyTooLarge:     http.StatusRequestEntityTooLarge,
	NotAPDF:          http.StatusUnprocessableEntity,
	AnalysisTimeout:  http.StatusUnprocessableEntity,
	InvalidIssuer:    http.StatusUnprocessableEntity,
	InvalidPolicy:    http.StatusUnprocessableEntity,
	ProfileRejected:  http.StatusUnprocessableEntity,
	QuotaExceeded:    http.StatusTooManyRequests,
	RateLimited:      http.StatusTooManyRequests,
	Busy:             http.StatusServiceUnavailable,
	RequestTimeout:   http.StatusRequestTimeout,
	StoreUnavailable: http.StatusServiceUnavailable,
	Internal:         http.StatusInternalServerError,
	// billing
	InvalidSignature:      http.StatusBadRequest,
	PlanAlreadyActive:     http.StatusConflict,
	SubscriptionActive:    http.StatusConflict,
	FreePlanOnly:          http.StatusConflict,
	NoBillingCustomer:     http.StatusConflict,
	PaymentProcessorError: http.StatusBadGateway,
	BillingUnavailable:    http.StatusServiceUnavailable,
	// supplier ledger
	InvalidIngestSecret: http.StatusUnauthorized,
	IngestUnavailable:   http.StatusServiceUnavailable,
	UnparseableMessage:  http.StatusUnprocessableEntity,
}

// messages is the English `message` of every error body (additive to
// SPEC.md's codes): what was wrong and what to do. {name} is replaced by
// the body field of that name, which every error of the code carries. A
// handler's own "message" field (invalid_request, invalid_policy ...) says
// more and replaces it.
var messages = map[Code]string{
	NoFile:           `The request carries no file. Send the document as the raw request body, or as a multipart part named "file" placed after any issuer and policy parts.`,
	InvalidRequest:   "The request could not be read. Check its body against the API description (/api/v1/openapi.json).",
	InvalidToken:     "This link is unknown, has expired or was used already. Ask for a new one.",
	InvalidAPIKey:    "The API key was not recognised or has been revoked. Check the header (Authorization: Bearer <key>), or send no key to use the anonymous allowance.",
	InvalidLogin:     "The email address or the password is wrong.",
	EmailTaken:       "An account with this email address exists already. Log in, or reset the password.",
	MailUnavailable:  "This server cannot send mail: no mail sender is configured (MAIL_OUTBOX or MAIL_FROM).",
	NotAuthenticated: "You are not signed in. Log in and try again.",
	OriginNotAllowed: "Requests from this web origin are not allowed. Call the API from a server, or ask the operator to add the origin to ALLOWED_ORIGINS.",
	PlanRequired:     "This feature needs the Growth plan (team) or a higher one. Change the account's plan first.",
	NotFound:         "Nothing is found at this address for this caller.",
	MethodNotAllowed: "This route does not take this HTTP method.",
	FileTooLarge:     "The file is larger than the upload limit of {maxMb} MB. Send a smaller file.",
	BodyTooLarge:     "The request body is larger than the {maxBytes} bytes this route accepts.",
	NotAPDF:          "The file is not in a format the service reads (PDF; Word, Excel and PowerPoint files old and new, OpenDocument; JPEG, PNG, WebP, HEIC or AVIF). Check that the right file was sent; sending it again gives the same answer.",
	AnalysisTimeout:  "The document used up its analysis budget of {timeoutMs} ms. Sending it again gives the same answer; triage mode (?mode=triage) reads less of it.",
	InvalidIssuer:    "The issuer must be a slug: lower-case letters, digits and hyphens, starting with a letter or a digit, at most 64 characters.",
	InvalidPolicy:    "The policy could not be read. Send a JSON object as described in the API documentation.",
	ProfileRejected:  "The profile built from these files failed the privacy checks and was not stored. Train it from more documents of the issuer.",
	QuotaExceeded:    "The account has used {used} of its {quota} documents this month and the buffer after them. Change plan or buy credits; this call was not billed.",
	RateLimited:      "Too many requests. Try again in {retryAfterSeconds} seconds.",
	Busy:             "Every worker is busy. Try again in {retryAfterSeconds} seconds, with backoff.",
	RequestTimeout:   "The upload stopped arriving and was not read whole within {timeoutSeconds} seconds. Send it again over a steadier connection.",
	StoreUnavailable: "The service's storage did not answer in time. Nothing was charged or recorded; try again in {retryAfterSeconds} seconds, with backoff.",
	Internal:         "Something went wrong on the server. Try again later; if it keeps happening, tell the operator.",
	// billing
	InvalidSignature:      "The Stripe-Signature header is missing, malformed, wrong or older than five minutes.",
	PlanAlreadyActive:     "The account is on this plan already.",
	SubscriptionActive:    "The account has a live subscription. Change plans in the billing portal.",
	FreePlanOnly:          "Credit packs are sold to accounts on the Free plan only; a paid plan changes through the billing portal.",
	NoBillingCustomer:     "The account has no billing record yet. Subscribe or buy credits first.",
	PaymentProcessorError: "The payment processor did not answer as expected. Try again in a minute.",
	BillingUnavailable:    "Billing is not available on this server right now. Try again later, or ask the service's operator to change the plan.",
	// supplier ledger
	InvalidIngestSecret: "The ingest secret is missing or wrong.",
	IngestUnavailable:   "Mail ingest is not configured on this server (INGEST_SECRET).",
	UnparseableMessage:  "The message could not be read as a MIME mail.",
	ReadError:           "The file could not be read.",
}

// Message is the English message of an error body: the error's own
// "message" field, else the code's sentence with its fields filled in.
func (e *Error) Message() string {
	if m, ok := e.Fields["message"].(string); ok && m != "" {
		return m
	}
	m, ok := messages[e.Code]
	if !ok {
		m = messages[Internal]
	}
	for k, v := range e.Fields {
		m = strings.ReplaceAll(m, "{"+k+"}", fmt.Sprint(v))
	}
	return m
}

// Body is the JSON error body of err: SPEC.md's code, the code's fields,
// and the English message.
func Body(err error) (Code, map[string]any) {
	e := apiError(err)
	body := map[string]any{"error": string(e.Code)}
	for k, v := range e.Fields {
		body[k] = v
	}
	body["message"] = e.Message()
	return e.Code, body
}

// anonymousLimited is the anonymous hourly allowance used up: the refusal
// says how long to wait and that a key lifts the limit.
func anonymousLimited(rl *ratelimit.Exceeded, limit int) *Error {
	wait := "1 minute"
	if m := (rl.RetryAfter + 59) / 60; m > 1 {
		wait = fmt.Sprintf("%d minutes", m)
	}
	return &Error{Code: RateLimited, RetryAfter: rl.RetryAfter, Fields: map[string]any{
		"retryAfterSeconds": rl.RetryAfter,
		"message": fmt.Sprintf("The anonymous allowance of %d %s an hour from this address is used up. "+
			"Try again in %s, or send an API key (a free account gives one) for a monthly quota.", limit, documents(limit), wait),
	}}
}

// Error is an API error: its code, the extra body fields SPEC.md names for
// it (maxMb, timeoutMs, message ...), and a Retry-After when it has one.
// Nothing about the document ever goes into an Error.
type Error struct {
	Code       Code
	Fields     map[string]any
	RetryAfter int
}

func (e *Error) Error() string { return string(e.Code) }

// Status is the HTTP status of the error's code.
func (e *Error) Status() int {
	if s, ok := statuses[e.Code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// E builds an Error with extra body fields from key/value pairs.
func E(code Code, kv ...any) *Error {
	e := &Error{Code: code}
	if len(kv) > 0 {
		e.Fields = map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			e.Fields[kv[i].(string)] = kv[i+1]
		}
	}
	return e
}

// apiError maps an error from the layers below onto the table: the
// metering and rate-limit refusals carry their numbers; anything unknown
// is a server fault and says nothing more than internal_error.
func apiError(err error) *Error {
	if e, ok := err.(*Error); ok {
		return e // the common case, without errors.As's reflection
	}
	var (
		e  *Error
		qe *metering.QuotaExceeded
		rl *ratelimit.Exceeded
		in *accounts.InputError
		bi *billing.InputError
		pe *billing.ProcessorError
		wi *webhook.InputError
		ee *report.Error
	)
	switch {
	case errors.As(err, &e):
		return e
	case errors.As(err, &in):
		return E(InvalidRequest, "message", in.Message)
	case errors.Is(err, accounts.ErrEmailTaken):
		return E(EmailTaken)
	case errors.Is(err, accounts.ErrBadCredentials):
		return E(InvalidLogin)
	case errors.Is(err, accounts.ErrInvalidToken):
		return E(InvalidToken)
	case errors.Is(err, accounts.ErrNotAuthenticated):
		return E(NotAuthenticated)
	case errors.Is(err, accounts.ErrKeyNotFound):
		return E(NotFound)
	case errors.Is(err, accounts.ErrMailUnavailable):
		return E(MailUnavailable)
	case errors.As(err, &qe):
		return E(QuotaExceeded, "quota", qe.Status.Limit, "used", qe.Status.Used)
	case errors.As(err, &rl):
		return &Error{Code: RateLimited, Fields: map[string]any{"retryAfterSeconds": rl.RetryAfter}, RetryAfter: rl.RetryAfter}
	case errors.Is(err, metering.ErrInvalidKey):
		return E(InvalidAPIKey)
	case errors.Is(err, store.ErrUnavailable):
		return &Error{Code: StoreUnavailable, Fields: map[string]any{"retryAfterSeconds": StoreRetryAfter}, RetryAfter: StoreRetryAfter}
	// baselines
	case errors.Is(err, baselines.ErrPlanRequired):
		return E(PlanRequired)
	case errors.Is(err, baselines.ErrRejected):
		return E(ProfileRejected)
	case errors.Is(err, baselines.ErrNotFound):
		return E(NotFound)
	case errors.Is(err, baselines.ErrNoUsable):
		return E(NotAPDF, "message", "no file could train the profile; see skipped")
	case errors.Is(err, baselines.ErrTooMany):
		return E(InvalidRequest, "message", "the account holds 25 profiles, the most it may; delete one first")
	// billing
	case errors.As(err, &bi):
		return E(InvalidRequest, "message", bi.Message)
	case errors.Is(err, billing.ErrBadEvent):
		return E(InvalidRequest, "message", "the event could not be read")
	case errors.Is(err, billing.ErrBadSignature):
		return E(InvalidSignature)
	case errors.Is(err, billing.ErrAlreadyOnPlan):
		return E(PlanAlreadyActive)
	case errors.Is(err, billing.ErrSubscriptionActive):
		return E(SubscriptionActive)
	case errors.Is(err, billing.ErrFreePlanOnly):
		return E(FreePlanOnly)
	case errors.Is(err, billing.ErrNoCustomer):
		return E(NoBillingCustomer)
	case errors.As(err, &pe):
		return E(PaymentProcessorError)
	case errors.Is(err, billing.ErrUnavailable):
		return E(BillingUnavailable)
	// supplier ledger
	case errors.Is(err, ledger.ErrUnknownAlias), errors.Is(err, ledger.ErrNoAlert):
		return E(NotFound)
	case errors.Is(err, ledger.ErrUnparseable):
		return E(UnparseableMessage)
	case errors.As(err, &wi):
		return E(InvalidRequest, "message", wi.Message)
	// the engine's errors carry their code from where they were made
	case errors.As(err, &ee):
		return coded(Code(ee.Code()))
	}
	return E(Internal)
}

// coded is the Error of a code an error brought from below (the engine's
// report.Error), with the fields SPEC.md gives every error of that code; a
// code the table does not know is a server fault.
func coded(c Code) *Error {
	switch _, known := statuses[c]; {
	case !known:
		return E(Internal)
	case c == AnalysisTimeout:
		return analysisTimeout()
	}
	return E(c)
}

// writeError writes err as SPEC.md's JSON error body.
func writeError(w http.ResponseWriter, err error) {
	e := apiError(err)
	if isBusy(e) {
		w.Header().Set("Retry-After", strconv.Itoa(busyRetryAfter))
		writeRaw(w, http.StatusServiceUnavailable, busyBody())
		return
	}
	_, body := Body(e)
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, e.Status(), body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal_error"}`)
	}
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

// documents is the noun after a count of documents.
func documents(n int) string {
	if n == 1 {
		return "document"
	}
	return "documents"
}
