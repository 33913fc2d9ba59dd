package tokenwire

import (
	"fmt"
	"strings"
)

// Param is one hot parameter of a PARAM_FLOW request: Tag says which field
// holds its value (Int for the integer tags, Float for the float ones, Bool,
// Str).
type Param struct {
	Tag   int8
	Int   int64
	Float float64
	Bool  bool
	Str   string
}

// Key is the parameter's value as a Go value of the tag's type, for use as
// a map key: int32, int64, int8, float64, float32, int16, bool or string.
func (p Param) Key() any {
	switch p.Tag {
	case TagInt32:
		return int32(p.Int)
	case TagInt64:
		return p.Int
	case TagInt8:
		return int8(p.Int)
	case TagFloat64:
		return p.Float
	case TagFloat32:
		return float32(p.Float)
	case TagInt16:
		return int16(p.Int)
	case TagBool:
		return p.Bool
	}
	return p.Str
}

// Request is a decoded request payload.
type Request struct {
	XID  int32
	Type int8
	// Namespace is a PING's namespace ("" when the client sent none).
	Namespace string
	// FlowID, Acquire and Prioritized are a FLOW's; FlowID, Acquire and
	// Params a PARAM_FLOW's.
	FlowID      int64
	Acquire     int32
	Prioritized bool
	Params      []Param
}

// ParseRequest decodes a request payload. A payload of an unknown type
// decodes with its XID and Type only: the server drops it, as Java's does.
func ParseRequest(payload []byte) (Request, error) {
	r := NewReader(payload)
	req := Request{XID: r.Int32(), Type: r.Int8()}
	if err := r.Err(); err != nil {
		return req, fmt.Errorf("request header: %w", err)
	}
	switch req.Type {
	case TypePing:
		if r.Remaining() > 0 {
			req.Namespace = string(r.Bytes())
		}
	case TypeFlow:
		req.FlowID, req.Acquire = r.Int64(), r.Int32()
		if r.Remaining() > 0 {
			req.Prioritized = r.Bool()
		}
	case TypeParamFlow:
		req.FlowID, req.Acquire = r.Int64(), r.Int32()
		n := r.Int32()
		if r.Err() == nil && n <= 0 {
			return req, fmt.Errorf("PARAM_FLOW request for flowId %d with %d parameters", req.FlowID, n)
		}
		for i := int32(0); i < n && r.Err() == nil; i++ {
			p, err := readParam(&r)
			if err != nil {
				return req, fmt.Errorf("PARAM_FLOW request for flowId %d, parameter %d: %w", req.FlowID, i, err)
			}
			req.Params = append(req.Params, p)
		}
	}
	if err := r.Err(); err != nil {
		return req, fmt.Errorf("request of type %d: %w", req.Type, err)
	}
	return req, nil
}

func readParam(r *Reader) (Param, error) {
	p := Param{Tag: r.Int8()}
	switch p.Tag {
	case TagInt32:
		p.Int = int64(r.Int32())
	case TagInt64:
		p.Int = r.Int64()
	case TagInt8:
		p.Int = int64(r.Int8())
	case TagFloat64:
		p.Float = r.Float64()
	case TagFloat32:
		p.Float = float64(r.Float32())
	case TagInt16:
		p.Int = int64(r.Int16())
	case TagBool:
		p.Bool = r.Bool()
	case TagString:
		p.Str = string(r.Bytes())
	default:
		return p, fmt.Errorf("unknown parameter tag %d", p.Tag)
	}
	return p, r.Err()
}

// Response is a decoded response payload.
type Response struct {
	XID    int32
	Type   int8
	Status int8
	// Remaining and WaitMs are a FLOW or PARAM_FLOW answer's; Connected a
	// PING answer's (clients connected in its namespace).
	Remaining, WaitMs int32
	Connected         int32
}

// ParseResponse decodes a response payload. As Java's client does, the
// FLOW and PARAM_FLOW fields are read only when exactly 8 bytes follow the
// header, and a PING's count only when 4 do.
func ParseResponse(payload []byte) (Response, error) {
	r := NewReader(payload)
	resp := Response{XID: r.Int32(), Type: r.Int8(), Status: r.Int8()}
	if err := r.Err(); err != nil {
		return resp, fmt.Errorf("response header: %w", err)
	}
	switch {
	case resp.Type == TypePing && r.Remaining() == 4:
		resp.Connected = r.Int32()
	case (resp.Type == TypeFlow || resp.Type == TypeParamFlow) && r.Remaining() == 8:
		resp.Remaining, resp.WaitMs = r.Int32(), r.Int32()
	}
	return resp, nil
}

// WritePing writes a PING request frame for namespace (nothing after the
// header when it is blank, as Java's client does).
func (w *Writer) WritePing(xid int32, namespace string) ([]byte, error) {
	w.Begin()
	w.Int32(xid)
	w.Int8(TypePing)
	if strings.TrimSpace(namespace) != "" {
		w.String(namespace)
	}
	return w.Frame()
}

// WriteFlow writes a FLOW request frame.
func (w *Writer) WriteFlow(xid int32, flowID int64, acquire int32, prioritized bool) ([]byte, error) {
	w.Begin()
	w.Int32(xid)
	w.Int8(TypeFlow)
	w.Int64(flowID)
	w.Int32(acquire)
	w.Bool(prioritized)
	return w.Frame()
}

// WriteParamFlow writes a PARAM_FLOW request frame; it fails when the
// parameters do not fit one frame.
func (w *Writer) WriteParamFlow(xid int32, flowID int64, acquire int32, params []Param) ([]byte, error) {
	w.BeginParamFlow(xid, flowID, acquire, len(params))
	for _, p := range params {
		if err := w.Param(p); err != nil {
			return nil, err
		}
	}
	return w.Frame()
}

// BeginParamFlow starts a PARAM_FLOW request of n parameters, to be written
// with Param and finished with Frame.
func (w *Writer) BeginParamFlow(xid int32, flowID int64, acquire int32, n int) {
	w.Begin()
	w.Int32(xid)
	w.Int8(TypeParamFlow)
	w.Int64(flowID)
	w.Int32(acquire)
	w.Int32(int32(n))
}

// Param appends one parameter of a PARAM_FLOW request.
func (w *Writer) Param(p Param) error {
	w.Int8(p.Tag)
	switch p.Tag {
	case TagInt32:
		w.Int32(int32(p.Int))
	case TagInt64:
		w.Int64(p.Int)
	case TagInt8:
		w.Int8(int8(p.Int))
	case TagFloat64:
		w.Float64(p.Float)
	case TagFloat32:
		w.Float32(float32(p.Float))
	case TagInt16:
		w.Int16(int16(p.Int))
	case TagBool:
		w.Bool(p.Bool)
	case TagString:
		if len(p.Str) > MaxPayload {
			return ErrFrameTooLarge
		}
		w.String(p.Str)
	default:
		return fmt.Errorf("tokenwire: unknown parameter tag %d", p.Tag)
	}
	return nil
}

// WriteTokenResponse writes the response frame of a FLOW or PARAM_FLOW
// request: status is the TokenResultStatus.
func (w *Writer) WriteTokenResponse(xid int32, typ, status int8, remaining, waitMs int32) ([]byte, error) {
	w.Begin()
	w.Int32(xid)
	w.Int8(typ)
	w.Int8(status)
	w.Int32(remaining)
	w.Int32(waitMs)
	return w.Frame()
}

// WritePingResponse writes a PING's response frame: StatusOK and the
// namespace's connected count, or StatusBad and no body.
func (w *Writer) WritePingResponse(xid int32, ok bool, connected int32) ([]byte, error) {
	w.Begin()
	w.Int32(xid)
	w.Int8(TypePing)
	if !ok {
		w.Int8(StatusBad)
		return w.Frame()
	}
	w.Int8(StatusOK)
	w.Int32(connected)
	return w.Frame()
}
