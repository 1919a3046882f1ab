package cli

import (
	"container/heap"
	"sync"
)

// jobQueue hands a batch's files to its workers largest first among those
// found and not yet started. A batch's wall time is the work divided over
// the workers plus whatever one worker still runs when the others have
// nothing left; starting the large files first keeps that tail to a small
// file. Size on disk is the cheap stand-in for cost. Records still come
// out in the order found: the printer reorders by seq.
type jobQueue struct {
	mu     sync.Mutex
	ready  sync.Cond
	jobs   jobHeap
	closed bool
}

func newJobQueue() *jobQueue {
	q := &jobQueue{}
	q.ready.L = &q.mu
	return q
}

func (q *jobQueue) push(j batchJob) {
	q.mu.Lock()
	heap.Push(&q.jobs, j)
	q.mu.Unlock()
	q.ready.Signal()
}

// close says no more jobs will come; pop then drains what is left.
func (q *jobQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.ready.Broadcast()
}

// pop waits for a job; false once the queue is closed and empty.
func (q *jobQueue) pop() (batchJob, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.jobs) == 0 && !q.closed {
		q.ready.Wait()
	}
	if len(q.jobs) == 0 {
		return batchJob{}, false
	}
	return heap.Pop(&q.jobs).(batchJob), true
}

// jobHeap orders by size, largest first; equal sizes keep the order
// found.
type jobHeap []batchJob

func (h jobHeap) Len() int { return len(h) }
func (h jobHeap) Less(i, j int) bool {
	if h[i].size != h[j].size {
		return h[i].size > h[j].size
	}
	return h[i].seq < h[j].seq
}
func (h jobHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *jobHeap) Push(x any)   { *h = append(*h, x.(batchJob)) }
func (h *jobHeap) Pop() any {
	old := *h
	j := old[len(old)-1]
	*h = old[:len(old)-1]
	return j
}
