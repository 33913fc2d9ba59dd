package leaparray

import "testing"

func TestReadBucketExactOrMarked(t *testing.T) {
	w := second(3)
	w.Add(100, 0, 4) // bucket 0
	w.Add(120, 2, 7)
	w.Add(600, 0, 1) // bucket 1
	dst := make([]int64, 3)
	if !w.ReadBucket(0, dst) || dst[0] != 4 || dst[1] != 0 || dst[2] != 7 {
		t.Fatalf("bucket 0 = %v, want [4 0 7] complete", dst)
	}
	// Bucket 2 reuses bucket 0's slot for counter 0 only.
	w.Add(1100, 0, 2)
	dst = make([]int64, 3)
	if w.ReadBucket(0, dst) {
		t.Error("bucket 0 read as complete after its slot was reused")
	}
	if dst[0] != 0 || dst[2] != 7 {
		t.Errorf("bucket 0 after reuse = %v, want the surviving counter 2 only", dst)
	}
	// A bucket nobody wrote reads as an exact zero, even long after.
	dst = make([]int64, 3)
	if !w.ReadBucket(5, dst) || dst[0] != 0 {
		t.Errorf("quiet bucket 5 = %v", dst)
	}
	// Bucket 1 is still whole.
	dst = make([]int64, 1)
	if !w.ReadBucket(1, dst) || dst[0] != 1 {
		t.Errorf("bucket 1 = %v", dst)
	}
}

func TestBorrowedAtID(t *testing.T) {
	w := second(1)
	if n, ok := w.BorrowedAtID(3); n != 0 || !ok {
		t.Fatalf("no borrowing yet: %d %v", n, ok)
	}
	if !w.Borrow(100, 600, 2) {
		t.Fatal("borrow refused")
	}
	if n, ok := w.BorrowedAtID(1); n != 2 || !ok {
		t.Errorf("bucket 1 borrowed %d %v, want 2", n, ok)
	}
}
