package email

import (
	"context"
	"fmt"
	"log/slog"
)

// Sender sends one message; an error means it was not accepted for delivery.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// New builds the configured provider. Providers Quarry does not implement (Strapi loads
// them from npm packages) are named in warnings and their messages are dropped with a
// warning each; a broken configuration of a known provider is an error.
func New(c Config, log *slog.Logger) (Sender, []string, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	switch c.Provider {
	case "sendmail":
		s, warn, err := newDirect(c.ProviderOptions, c.Settings)
		if err != nil {
			return nil, nil, fmt.Errorf("plugins email.config (sendmail): %w", err)
		}
		return s, warn, nil
	case "nodemailer":
		o, err := parseSMTPOptions(c.ProviderOptions)
		if err != nil {
			return nil, nil, fmt.Errorf("plugins email.config (nodemailer): %w", err)
		}
		switch {
		case o.Sendmail:
			s, err := newBinary(c.ProviderOptions, c.Settings)
			if err != nil {
				return nil, nil, fmt.Errorf("plugins email.config (nodemailer sendmail): %w", err)
			}
			return s, nil, nil
		case len(o.Stream) > 0 || len(o.JSON) > 0 || len(o.SES) > 0:
			w := "email provider nodemailer: only its SMTP and sendmail transports are supported; e-mails (password reset, confirmation) will not be sent"
			return dropped{provider: c.Provider, log: log}, []string{w}, nil
		}
		s, warn, err := newSMTP(c.ProviderOptions, c.Settings)
		if err != nil {
			return nil, nil, fmt.Errorf("plugins email.config (nodemailer): %w", err)
		}
		return s, warn, nil
	}
	w := fmt.Sprintf("email provider %q is not supported by Quarry (supported: nodemailer, sendmail); e-mails (password reset, confirmation) will not be sent", c.Provider)
	return dropped{provider: c.Provider, log: log}, []string{w}, nil
}

// dropped stands for a provider Quarry does not have: nothing is sent, and the request goes
// on as if it had been (the reset or confirmation code stays in the database).
type dropped struct {
	provider string
	log      *slog.Logger
}

func (d dropped) Send(_ context.Context, m Message) error {
	d.log.Warn("email not sent: unsupported provider", "provider", d.provider, "subject", m.Subject)
	return nil
}
