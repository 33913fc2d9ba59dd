// Package svc spells the directive in ways Go tools read as prose; each one
// would drop the guard without a word if it were not reported.
package svc

import "context"

// Service is guarded.
type Service struct{}

// BlankAfterSlashes has a blank after //, which gofmt keeps as prose.
//
// sentinel:resource name=blankAfterSlashes
func (s *Service) BlankAfterSlashes(ctx context.Context) error { return nil }

// BlankAfterColon has a blank after the colon.
//
// sentinel: resource name=blankAfterColon
func (s *Service) BlankAfterColon(ctx context.Context) error { return nil }

// UpperCase is capitalised.
//
// Sentinel:resource name=upperCase
func (s *Service) UpperCase(ctx context.Context) error { return nil }

// BlankBeforeColon has a blank before the colon and no verb.
//
// Sentinel : name=blankBeforeColon
func (s *Service) BlankBeforeColon(ctx context.Context) error { return nil }

/*
	BlockComment is documented by a block comment.

sentinel:resource name=blockComment
*/
func (s *Service) BlockComment(ctx context.Context) error { return nil }

// InBody has a near miss inside its body.
//
//sentinel:resource name=inBody
func (s *Service) InBody(ctx context.Context) error {
	// sentinel:resource name=nested
	return nil
}

// Prose mentions Sentinel: this comment is left alone.
//
// Sentinel: the library whose annotation this mirrors.
func (s *Service) Prose(ctx context.Context) error { return nil }
