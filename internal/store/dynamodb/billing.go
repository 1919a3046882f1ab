package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doctrust/doctrust/internal/store"
)

func (s *Store) SetCustomer(ctx context.Context, accountID, customerID string) error {
	if customerID == "" {
		return errors.New("dynamodb: set customer: empty customer id")
	}
	return s.updateAccount(ctx, "set customer", accountID, accountUpdate{
		set:    map[string]types.AttributeValue{attrCustomer: sv(customerID)},
		values: map[string]types.AttributeValue{},
	})
}

// ApplyPlan is one conditional UpdateItem. Empty strings and zero times
// are removed rather than stored, as everywhere in this store.
func (s *Store) ApplyPlan(ctx context.Context, accountID string, st store.PlanState) error {
	u := accountUpdate{
		set:       map[string]types.AttributeValue{attrPlan: sv(st.Plan), attrPlanVersion: nv(st.Version)},
		condition: []string{"(attribute_not_exists(#" + attrPlanVersion + ") OR #" + attrPlanVersion + " <= :v)"},
		values:    map[string]types.AttributeValue{":v": nv(st.Version)},
	}
	u.setOrRemove(attrSubscription, st.SubscriptionID)
	u.setOrRemove(attrPeriodStart, timeString(st.PeriodStart))
	u.setOrRemove(attrPeriodEnd, timeString(st.PeriodEnd))
	if st.IfSubscription != "" {
		u.condition = append(u.condition, "(attribute_not_exists(#"+attrSubscription+") OR #"+attrSubscription+" = :ifsub)")
		u.values[":ifsub"] = sv(st.IfSubscription)
		u.names = append(u.names, attrSubscription)
	}
	u.names = append(u.names, attrPlanVersion)
	return s.updateAccount(ctx, "apply plan", accountID, u)
}

// RecordPaymentFailure compares the fixed-width time strings, whose text
// order is time order.
func (s *Store) RecordPaymentFailure(ctx context.Context, accountID string, f store.PaymentFailure) error {
	if f.At.IsZero() {
		return errors.New("dynamodb: payment failure: no time")
	}
	u := accountUpdate{
		set:       map[string]types.AttributeValue{attrPaymentFailedAt: tv(f.At)},
		condition: []string{"(attribute_not_exists(#" + attrPaymentFailedAt + ") OR #" + attrPaymentFailedAt + " <= :at)"},
		values:    map[string]types.AttributeValue{":at": tv(f.At)},
	}
	u.setOrRemove(attrPaymentFailedRef, f.Ref)
	return s.updateAccount(ctx, "payment failure", accountID, u)
}

func timeString(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return formatTime(t)
}

// accountUpdate is a conditional change of an account item: attributes to
// set and to remove, extra conditions (beyond the item existing) with the
// names and values they use.
type accountUpdate struct {
	set       map[string]types.AttributeValue
	remove    []string
	condition []string
	names     []string
	values    map[string]types.AttributeValue
}

func (u *accountUpdate) setOrRemove(attr, v string) {
	if v == "" {
		u.remove = append(u.remove, attr)
		return
	}
	u.set[attr] = sv(v)
}

// updateAccount applies u to acct#<id>. A failed condition is told apart
// by the old item returned with it: none means no account (ErrNotFound),
// else one of u's conditions did not hold (ErrRefused).
func (s *Store) updateAccount(ctx context.Context, what, accountID string, u accountUpdate) error {
	allNames := append([]string{attrPK}, u.names...)
	var sets []string
	for attr, v := range u.set {
		sets = append(sets, "#"+attr+" = :set_"+attr)
		u.values[":set_"+attr] = v
		allNames = append(allNames, attr)
	}
	expr := "SET " + strings.Join(sets, ", ")
	if len(u.remove) > 0 {
		rm := make([]string, len(u.remove))
		for i, attr := range u.remove {
			rm[i] = "#" + attr
		}
		expr += " REMOVE " + strings.Join(rm, ", ")
		allNames = append(allNames, u.remove...)
	}
	cond := strings.Join(append([]string{"attribute_exists(#" + attrPK + ")"}, u.condition...), " AND ")
	err := s.retry(ctx, func() error {
		_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                           &s.accounts,
			Key:                                 key(attrPK, acctKey(accountID)),
			UpdateExpression:                    aws.String(expr),
			ConditionExpression:                 aws.String(cond),
			ExpressionAttributeNames:            names(allNames...),
			ExpressionAttributeValues:           u.values,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		})
		return err
	})
	if ccf := conditionFailed(err); ccf != nil {
		if len(ccf.Item) == 0 {
			return store.ErrNotFound
		}
		return store.ErrRefused
	}
	if err != nil {
		return fmt.Errorf("dynamodb: %s: %w", what, err)
	}
	return nil
}
