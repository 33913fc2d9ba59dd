// Package tokenwire is the wire format of Sentinel 1.8's cluster token
// protocol (the default codec of sentinel-cluster-common-default), shared by
// the Go token client and server so that both speak to Java's unchanged.
//
// A frame is a big-endian uint16 length, then that many bytes of payload; a
// frame is at most MaxFrame bytes, the length included. A request's payload
// is xid int32 | type int8 | body; a response's is xid int32 | type int8 |
// status int8 | body. All integers are big-endian; a bool is one byte.
//
// Bodies by type:
//
//	PING request        namespace length int32 | namespace bytes (nothing for a blank namespace)
//	PING response       connected clients in the namespace int32
//	FLOW request        flowId int64 | acquire int32 | prioritized bool (optional)
//	PARAM_FLOW request  flowId int64 | acquire int32 | n int32 | n × (tag int8 | value)
//	FLOW and PARAM_FLOW responses
//	                    remaining int32 | waitInMs int32
//
// A parameter's tag says its type: 0 int32, 1 int64, 2 int8, 3 float64,
// 4 float32, 5 int16, 6 bool, 7 string (length int32 | bytes).
package tokenwire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Message types (Sentinel's ClusterConstants.MSG_TYPE_*).
const (
	TypePing      int8 = 0
	TypeFlow      int8 = 1
	TypeParamFlow int8 = 2
)

// Response header statuses (ClusterConstants.RESPONSE_STATUS_*): a FLOW or
// PARAM_FLOW response carries its TokenResultStatus here instead.
const (
	StatusOK  int8 = 0
	StatusBad int8 = -1
)

// MaxFrame is the largest frame either side accepts, its 2-byte length
// included (Java's LengthFieldBasedFrameDecoder limit).
const MaxFrame = 1024

// MaxPayload is the largest payload a frame carries.
const MaxPayload = MaxFrame - 2

// Parameter tags of a PARAM_FLOW request (ClusterConstants.PARAM_TYPE_*).
const (
	TagInt32   int8 = 0
	TagInt64   int8 = 1
	TagInt8    int8 = 2
	TagFloat64 int8 = 3
	TagFloat32 int8 = 4
	TagInt16   int8 = 5
	TagBool    int8 = 6
	TagString  int8 = 7
)

// ErrFrameTooLarge is returned for a frame whose length exceeds MaxFrame.
var ErrFrameTooLarge = errors.New("tokenwire: frame longer than 1024 bytes")

// ErrShort is returned (wrapped) for a payload that ends before its fields.
var ErrShort = errors.New("tokenwire: payload too short")

// ReadFrame reads one frame from r into buf (which must hold MaxPayload
// bytes) and returns its payload, a slice of buf.
func ReadFrame(r io.Reader, buf []byte) ([]byte, error) {
	// The length is read into buf too: a local array would escape to the
	// heap through the io.Reader.
	if _, err := io.ReadFull(r, buf[:2]); err != nil {
		return nil, err
	}
	size := int(binary.BigEndian.Uint16(buf[:2]))
	if size > MaxPayload {
		return nil, fmt.Errorf("%w: %d", ErrFrameTooLarge, size+2)
	}
	if _, err := io.ReadFull(r, buf[:size]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf[:size], nil
}

// Writer builds one frame at a time in a reusable buffer.
type Writer struct {
	buf []byte
}

// Begin starts a frame, dropping any frame not yet taken by Frame.
func (w *Writer) Begin() {
	if cap(w.buf) < MaxFrame {
		w.buf = make([]byte, 0, MaxFrame)
	}
	w.buf = append(w.buf[:0], 0, 0)
}

// Int8 appends v.
func (w *Writer) Int8(v int8) { w.buf = append(w.buf, byte(v)) }

// Bool appends v as one byte, 1 or 0.
func (w *Writer) Bool(v bool) {
	if v {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
}

// Int16 appends v big-endian.
func (w *Writer) Int16(v int16) { w.buf = binary.BigEndian.AppendUint16(w.buf, uint16(v)) }

// Int32 appends v big-endian.
func (w *Writer) Int32(v int32) { w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(v)) }

// Int64 appends v big-endian.
func (w *Writer) Int64(v int64) { w.buf = binary.BigEndian.AppendUint64(w.buf, uint64(v)) }

// Float64 appends v's IEEE 754 bits big-endian.
func (w *Writer) Float64(v float64) { w.Int64(int64(math.Float64bits(v))) }

// Float32 appends v's IEEE 754 bits big-endian.
func (w *Writer) Float32(v float32) { w.Int32(int32(math.Float32bits(v))) }

// String appends s as length int32 | bytes.
func (w *Writer) String(s string) {
	w.Int32(int32(len(s)))
	w.buf = append(w.buf, s...)
}

// Len is the payload written so far.
func (w *Writer) Len() int { return len(w.buf) - 2 }

// Frame finishes the frame and returns it, length prefix included; the
// slice is valid until the next Begin. It fails when the payload is larger
// than MaxPayload.
func (w *Writer) Frame() ([]byte, error) {
	n := w.Len()
	if n > MaxPayload {
		return nil, fmt.Errorf("%w: %d", ErrFrameTooLarge, n+2)
	}
	binary.BigEndian.PutUint16(w.buf[:2], uint16(n))
	return w.buf, nil
}

// Reader reads the fields of one payload in order. After a read past the
// end, every later read returns zero and Err reports ErrShort.
type Reader struct {
	p   []byte
	err error
}

// NewReader reads payload.
func NewReader(payload []byte) Reader { return Reader{p: payload} }

// Err is ErrShort (wrapped) once a read went past the end, else nil.
func (r *Reader) Err() error { return r.err }

// Remaining is the number of bytes not read yet.
func (r *Reader) Remaining() int { return len(r.p) }

func (r *Reader) take(n int) []byte {
	if r.err != nil || len(r.p) < n {
		if r.err == nil {
			r.err = fmt.Errorf("%w: want %d more bytes, have %d", ErrShort, n, len(r.p))
		}
		r.p = nil
		return nil
	}
	b := r.p[:n]
	r.p = r.p[n:]
	return b
}

// Int8 reads one byte.
func (r *Reader) Int8() int8 {
	if b := r.take(1); b != nil {
		return int8(b[0])
	}
	return 0
}

// Bool reads one byte; any value but 0 is true.
func (r *Reader) Bool() bool { return r.Int8() != 0 }

// Int16 reads a big-endian int16.
func (r *Reader) Int16() int16 {
	if b := r.take(2); b != nil {
		return int16(binary.BigEndian.Uint16(b))
	}
	return 0
}

// Int32 reads a big-endian int32.
func (r *Reader) Int32() int32 {
	if b := r.take(4); b != nil {
		return int32(binary.BigEndian.Uint32(b))
	}
	return 0
}

// Int64 reads a big-endian int64.
func (r *Reader) Int64() int64 {
	if b := r.take(8); b != nil {
		return int64(binary.BigEndian.Uint64(b))
	}
	return 0
}

// Float64 reads IEEE 754 bits.
func (r *Reader) Float64() float64 { return math.Float64frombits(uint64(r.Int64())) }

// Float32 reads IEEE 754 bits.
func (r *Reader) Float32() float32 { return math.Float32frombits(uint32(r.Int32())) }

// Bytes reads length int32 | bytes and returns the bytes (a slice of the
// payload). A negative length is an error.
func (r *Reader) Bytes() []byte {
	n := r.Int32()
	if n < 0 {
		if r.err == nil {
			r.err = fmt.Errorf("%w: negative length %d", ErrShort, n)
		}
		return nil
	}
	return r.take(int(n))
}
