package tokenwire

import (
	"bytes"
	"encoding/hex"
	"errors"
	"reflect"
	"testing"
)

// The bytes of each request as Java's client writes them, from the layout
// of its encoders: a wire change shows up here, not only in a Java test.
func TestRequestBytes(t *testing.T) {
	var w Writer
	cases := []struct {
		name  string
		frame func() ([]byte, error)
		want  string
	}{
		{"ping", func() ([]byte, error) { return w.WritePing(0, "orders") }, "000f" + "00000000" + "00" + "00000006" + hex.EncodeToString([]byte("orders"))},
		{"blank ping", func() ([]byte, error) { return w.WritePing(0, " ") }, "0005" + "00000000" + "00"},
		{"flow", func() ([]byte, error) { return w.WriteFlow(7, 111, 2, true) }, "0012" + "00000007" + "01" + "000000000000006f" + "00000002" + "01"},
		{"param", func() ([]byte, error) {
			return w.WriteParamFlow(8, 5, 1, []Param{{Tag: TagString, Str: "a"}, {Tag: TagInt64, Int: -1}, {Tag: TagBool, Bool: true}})
		}, "0026" + "00000008" + "02" + "0000000000000005" + "00000001" + "00000003" + "07" + "00000001" + "61" + "01" + "ffffffffffffffff" + "06" + "01"},
	}
	for _, c := range cases {
		got, err := c.frame()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if hex.EncodeToString(got) != c.want {
			t.Errorf("%s:\n got %x\nwant %s", c.name, got, c.want)
		}
	}
}

func TestRequestsRoundTrip(t *testing.T) {
	var w Writer
	params := []Param{{Tag: TagInt32, Int: -5}, {Tag: TagInt64, Int: 1 << 40}, {Tag: TagInt8, Int: -2},
		{Tag: TagFloat64, Float: 2.5}, {Tag: TagFloat32, Float: 0.5}, {Tag: TagInt16, Int: 300},
		{Tag: TagBool, Bool: true}, {Tag: TagString, Str: "用户"}}
	frame, err := w.WriteParamFlow(9, 42, 3, params)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, MaxPayload)
	payload, err := ReadFrame(bytes.NewReader(frame), buf)
	if err != nil {
		t.Fatal(err)
	}
	req, err := ParseRequest(payload)
	if err != nil {
		t.Fatal(err)
	}
	want := Request{XID: 9, Type: TypeParamFlow, FlowID: 42, Acquire: 3, Params: params}
	if !reflect.DeepEqual(req, want) {
		t.Errorf("got %+v\nwant %+v", req, want)
	}

	frame, _ = w.WriteFlow(3, 9, 1, false)
	req, err = ParseRequest(frame[2:])
	if err != nil || !reflect.DeepEqual(req, Request{XID: 3, Type: TypeFlow, FlowID: 9, Acquire: 1}) {
		t.Errorf("flow: %+v %v", req, err)
	}
	// Java before 1.7 sent no priority flag: still a request.
	req, err = ParseRequest(frame[2 : len(frame)-1])
	if err != nil || req.FlowID != 9 || req.Prioritized {
		t.Errorf("flow without the flag: %+v %v", req, err)
	}
	frame, _ = w.WritePing(0, "orders")
	if req, err = ParseRequest(frame[2:]); err != nil || req.Namespace != "orders" {
		t.Errorf("ping: %+v %v", req, err)
	}
}

func TestResponsesRoundTrip(t *testing.T) {
	var w Writer
	frame, _ := w.WriteTokenResponse(12, TypeFlow, 2, 0, 100)
	resp, err := ParseResponse(frame[2:])
	if err != nil || resp != (Response{XID: 12, Type: TypeFlow, Status: 2, WaitMs: 100}) {
		t.Errorf("flow response: %+v %v", resp, err)
	}
	frame, _ = w.WritePingResponse(0, true, 3)
	if resp, err = ParseResponse(frame[2:]); err != nil || resp.Connected != 3 || resp.Status != StatusOK {
		t.Errorf("ping response: %+v %v", resp, err)
	}
	frame, _ = w.WritePingResponse(0, false, 0)
	if resp, err = ParseResponse(frame[2:]); err != nil || resp.Status != StatusBad {
		t.Errorf("bad ping response: %+v %v", resp, err)
	}
}

func TestMalformedInput(t *testing.T) {
	buf := make([]byte, MaxPayload)
	if _, err := ReadFrame(bytes.NewReader([]byte{0x04, 0x00}), buf); !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("a 1026-byte frame: %v", err)
	}
	if _, err := ReadFrame(bytes.NewReader([]byte{0x00, 0x09, 1, 2}), buf); err == nil {
		t.Error("a truncated frame was read")
	}
	for name, payload := range map[string][]byte{
		"short header":    {0, 0, 0},
		"short flow":      {0, 0, 0, 1, byte(TypeFlow), 0, 0, 0},
		"no params":       append([]byte{0, 0, 0, 1, byte(TypeParamFlow)}, make([]byte, 16)...),
		"unknown tag":     append(append([]byte{0, 0, 0, 1, byte(TypeParamFlow)}, make([]byte, 12)...), 0, 0, 0, 1, 99),
		"negative length": {0, 0, 0, 0, byte(TypePing), 0xff, 0xff, 0xff, 0xff},
	} {
		if _, err := ParseRequest(payload); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	var w Writer
	if _, err := w.WriteParamFlow(1, 1, 1, []Param{{Tag: TagString, Str: string(make([]byte, MaxPayload))}}); !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("an oversized request: %v", err)
	}
}
