package runtime

import (
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/sysreadings"
	"github.com/sentinelgen/sentinelgen/runtime/internal/sysstat"
)

// The latest load average and CPU usage (0..1), each -1 while unknown,
// which no threshold is below, live in internal/sysreadings, where the
// conformance harness can pin them (see that package for why they are not
// here): the sampler stores them with sysreadings.Sampled, the checks read
// sysreadings.Load and CPU.

// readingsSupported reports whether load and CPU rules can be checked here:
// on platforms the runtime reads, or anywhere while the readings are
// pinned (a scenario gives them).
func readingsSupported() bool { return sysstat.Supported() || sysreadings.Pinned() }

// systemSamplePeriod is how often the sampler reads (Sentinel's
// SystemStatusListener runs every second).
const systemSamplePeriod = time.Second

// sampler is the goroutine that reads the system while system protection
// is on, and only then.
var sampler struct {
	sync.Mutex
	stop chan struct{}
	done chan struct{}
}

// sampleSource makes what the sampler reads each period; ok false leaves
// the readings as they are. Tests replace it (before a system rule is
// loaded) with one that reads nothing, and set the readings themselves (sysreadings.Sampled).
var sampleSource = func() func() (load, cpu float64, ok bool) {
	s := sysstat.NewSampler()
	return func() (float64, float64, bool) {
		load, cpu := s.Sample(time.Now())
		return load, cpu, true
	}
}

// startSystemSampler starts the sampler unless it runs. Its first reading
// is at once, as Sentinel's (initial delay 0); the CPU usage needs a second
// reading, a period later.
func startSystemSampler() {
	sampler.Lock()
	defer sampler.Unlock()
	if sampler.stop != nil {
		return
	}
	stop, done := make(chan struct{}), make(chan struct{})
	sampler.stop, sampler.done = stop, done
	read := sampleSource()
	go func() {
		defer close(done)
		t := time.NewTicker(systemSamplePeriod)
		defer t.Stop()
		for {
			if load, cpu, ok := read(); ok {
				sysreadings.Sampled(load, cpu)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
}

// stopSystemSampler stops the sampler, waits for it to end and forgets the
// readings, so that protection switched on later starts from unknown.
func stopSystemSampler() {
	sampler.Lock()
	defer sampler.Unlock()
	if sampler.stop == nil {
		return
	}
	close(sampler.stop)
	<-sampler.done
	sampler.stop, sampler.done = nil, nil
	sysreadings.Sampled(-1, -1)
}

// systemSamplerRunning reports whether the sampler runs.
func systemSamplerRunning() bool {
	sampler.Lock()
	defer sampler.Unlock()
	return sampler.stop != nil
}
