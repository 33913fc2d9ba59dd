package example

import (
	"encoding/json"

	"google.golang.org/grpc/encoding"
)

// Codec marshals messages as JSON. Clients select it with
// grpc.CallContentSubtype(Codec{}.Name()); the server finds it by that
// subtype once registered (init below).
type Codec struct{}

// Marshal encodes v as JSON.
func (Codec) Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// Unmarshal decodes JSON into v.
func (Codec) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// Name is the content subtype, "json".
func (Codec) Name() string { return "json" }

func init() { encoding.RegisterCodec(Codec{}) }
