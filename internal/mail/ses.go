package mail

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"
)

// SES sends through Amazon SES (API v2) as a Simple message, leaving the
// MIME assembly to SES.
type SES struct {
	Client *sesv2.Client
	// From must be an identity verified in SES.
	From string
}

var _ Sender = (*SES)(nil)

// Send hands m to SES. Errors name the operation and SES's answer, never
// the body.
func (s *SES) Send(ctx context.Context, m Message) error {
	if s.Client == nil {
		return errors.New("mail: SES sender has no client")
	}
	to, err := validate(m)
	if err != nil {
		return err
	}
	from, err := parseFrom(s.From)
	if err != nil {
		return err
	}
	_, err = s.Client.SendEmail(ctx, &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(formatAddress(from)),
		Destination:      &types.Destination{ToAddresses: []string{formatAddress(to)}},
		Content: &types.EmailContent{Simple: &types.Message{
			Subject: &types.Content{Data: aws.String(m.Subject), Charset: aws.String("UTF-8")},
			Body: &types.Body{Text: &types.Content{
				Data: aws.String(m.Text), Charset: aws.String("UTF-8"),
			}},
		}},
	})
	if err != nil {
		// The SDK's error carries the operation, status and SES's own
		// message, none of which echo the request body.
		return fmt.Errorf("mail: SES SendEmail: %w", err)
	}
	return nil
}
