// Package mail has a breaker and nothing to answer when it is open.
package mail

import "context"

// Send sends a mail.
//
//sentinel:resource name=nohandler.send
func Send(ctx context.Context, to string) error { return nil }

// Render renders a template; a defaultFallback answers for it.
//
//sentinel:resource name=nohandler.render defaultFallback=renderDefault
func Render(ctx context.Context, name string) (string, error) { return "", nil }

func renderDefault() (string, error) { return "", nil }
