package dynamodb

import (
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doctrust/doctrust/internal/store"
)

// timeLayout is RFC 3339 in UTC with all nine fractional digits kept:
// fixed width, so text order is time order (RFC3339Nano trims trailing
// zeros and would sort 10:00:00.5Z before 10:00:00Z), and exact, so a
// stored time is Equal to the one given.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func sv(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func nv(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}
func tv(t time.Time) types.AttributeValue {
	return &types.AttributeValueMemberS{Value: formatTime(t)}
}

func key(attr, value string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attr: sv(value)}
}

// names maps #a to a for each attribute: placeholders everywhere spare us
// tracking DynamoDB's long list of reserved words (name, hash, ...).
func names(attrs ...string) map[string]string {
	m := make(map[string]string, len(attrs))
	for _, a := range attrs {
		m["#"+a] = a
	}
	return m
}

// putS leaves empty strings out, so an absent field is simply absent.
func putS(item map[string]types.AttributeValue, attr, v string) {
	if v != "" {
		item[attr] = sv(v)
	}
}

// putT leaves zero times out, as putS does empty strings.
func putT(item map[string]types.AttributeValue, attr string, t time.Time) {
	if !t.IsZero() {
		item[attr] = tv(t)
	}
}

// putExpiry stores the exact expiry and the TTL attribute; a zero time
// means the item never expires.
func putExpiry(item map[string]types.AttributeValue, t time.Time) {
	if t.IsZero() {
		return
	}
	item[attrExpires] = tv(t)
	item[attrExpiresAt] = nv(ttlSeconds(t))
}

// ttlSeconds rounds up, so TTL deletion never comes before the exact
// expiry that reads go by.
func ttlSeconds(t time.Time) int64 {
	s := t.Unix()
	if t.Nanosecond() > 0 {
		s++
	}
	return s
}

// reader decodes attributes, keeping the first error. Errors name the
// attribute, never its value.
type reader struct {
	item map[string]types.AttributeValue
	err  error
}

func (r *reader) fail(attr, want string) {
	if r.err == nil {
		r.err = fmt.Errorf("attribute %s is not %s", attr, want)
	}
}

func (r *reader) s(attr string) string {
	switch v := r.item[attr].(type) {
	case nil:
		return ""
	case *types.AttributeValueMemberS:
		return v.Value
	}
	r.fail(attr, "a string")
	return ""
}

func (r *reader) n(attr string) int64 {
	switch v := r.item[attr].(type) {
	case nil:
		return 0
	case *types.AttributeValueMemberN:
		n, err := strconv.ParseInt(v.Value, 10, 64)
		if err == nil {
			return n
		}
	}
	r.fail(attr, "an integer")
	return 0
}

func (r *reader) b(attr string) bool {
	switch v := r.item[attr].(type) {
	case nil:
		return false
	case *types.AttributeValueMemberBOOL:
		return v.Value
	}
	r.fail(attr, "a boolean")
	return false
}

func (r *reader) t(attr string) time.Time {
	s := r.s(attr)
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		r.fail(attr, "a time")
	}
	return t
}

// expired reports whether the item's exact expiry is at or before now.
func (r *reader) expired(now time.Time) bool {
	exp := r.t(attrExpires)
	return !exp.IsZero() && !exp.After(now)
}

func accountItem(a store.Account) map[string]types.AttributeValue {
	item := map[string]types.AttributeValue{
		attrID:       sv(a.ID),
		attrVerified: &types.AttributeValueMemberBOOL{Value: a.Verified},
		attrCredits:  nv(int64(a.Credits)),
		attrCreated:  tv(a.Created),
		// Items written before sessions existed lack it; it reads as 0
		// and ResetPassword's ADD starts it from 0.
		attrSessionEpoch: nv(int64(a.SessionEpoch)),
	}
	putS(item, attrEmail, a.Email)
	putS(item, attrPasswordHash, a.PasswordHash)
	putS(item, attrPlan, a.Plan)
	b := a.Billing
	putS(item, attrCustomer, b.CustomerID)
	putS(item, attrSubscription, b.SubscriptionID)
	putT(item, attrPeriodStart, b.PeriodStart)
	putT(item, attrPeriodEnd, b.PeriodEnd)
	putT(item, attrPaymentFailedAt, b.PaymentFailedAt)
	putS(item, attrPaymentFailedRef, b.PaymentFailedRef)
	if b.PlanVersion != 0 {
		item[attrPlanVersion] = nv(b.PlanVersion)
	}
	return item
}

func decodeAccount(item map[string]types.AttributeValue) (store.Account, error) {
	r := reader{item: item}
	a := store.Account{
		ID: r.s(attrID), Email: r.s(attrEmail), PasswordHash: r.s(attrPasswordHash),
		Verified: r.b(attrVerified), Plan: r.s(attrPlan), Credits: int(r.n(attrCredits)),
		Created: r.t(attrCreated), SessionEpoch: int(r.n(attrSessionEpoch)),
		// Items from before billing lack these attributes: zero values.
		Billing: store.Billing{
			CustomerID: r.s(attrCustomer), SubscriptionID: r.s(attrSubscription),
			PeriodStart: r.t(attrPeriodStart), PeriodEnd: r.t(attrPeriodEnd), PlanVersion: r.n(attrPlanVersion),
			PaymentFailedAt: r.t(attrPaymentFailedAt), PaymentFailedRef: r.s(attrPaymentFailedRef),
		},
	}
	return a, r.err
}

func keyItem(k store.APIKey) map[string]types.AttributeValue {
	item := map[string]types.AttributeValue{
		attrHash:      sv(k.Hash),
		attrID:        sv(k.ID),
		attrAccountID: sv(k.AccountID),
		attrCreated:   tv(k.Created),
		attrRevoked:   &types.AttributeValueMemberBOOL{Value: k.Revoked},
	}
	putS(item, attrPreview, k.Preview)
	if !k.RevokedAt.IsZero() {
		item[attrRevokedAt] = tv(k.RevokedAt)
	}
	return item
}

func decodeKey(item map[string]types.AttributeValue) (store.APIKey, error) {
	r := reader{item: item}
	k := store.APIKey{
		ID: r.s(attrID), AccountID: r.s(attrAccountID), Hash: r.s(attrHash), Preview: r.s(attrPreview),
		Created: r.t(attrCreated), Revoked: r.b(attrRevoked), RevokedAt: r.t(attrRevokedAt),
	}
	return k, r.err
}

func sessionItem(sess store.Session) map[string]types.AttributeValue {
	item := map[string]types.AttributeValue{
		attrHash:      sv(sess.Hash),
		attrAccountID: sv(sess.AccountID),
		attrEpoch:     nv(int64(sess.Epoch)),
		attrCreated:   tv(sess.Created),
	}
	putExpiry(item, sess.Expires)
	return item
}

func decodeSession(item map[string]types.AttributeValue) (store.Session, error) {
	r := reader{item: item}
	sess := store.Session{
		Hash: r.s(attrHash), AccountID: r.s(attrAccountID), Epoch: int(r.n(attrEpoch)),
		Created: r.t(attrCreated), Expires: r.t(attrExpires),
	}
	return sess, r.err
}

func tokenItem(tok store.Token) map[string]types.AttributeValue {
	item := map[string]types.AttributeValue{
		attrHash:      sv(tok.Hash),
		attrKind:      sv(tok.Kind),
		attrAccountID: sv(tok.AccountID),
	}
	putExpiry(item, tok.Expires)
	return item
}

func decodeToken(item map[string]types.AttributeValue) (store.Token, error) {
	r := reader{item: item}
	tok := store.Token{
		Hash: r.s(attrHash), Kind: r.s(attrKind), AccountID: r.s(attrAccountID), Expires: r.t(attrExpires),
	}
	return tok, r.err
}
