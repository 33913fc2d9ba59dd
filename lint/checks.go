package lint

// Check is one rule of the linter: what it looks for and why.
type Check struct {
	// ID names the check in output and in Options.Disable, e.g.
	// "no-slow-breaker".
	ID string
	// Severity is the severity of every diagnostic the check reports.
	Severity Severity
	// Summary says in one line what the check catches.
	Summary string
	// Lesson is the incident or rule of thumb the check encodes; the
	// warnings cite it so that the reader learns why it matters.
	Lesson string

	run func(*pass)
}

// checks is the table of every check, in the order -list prints them:
// errors first, then warnings.
var checks = []Check{
	{
		ID: "invalid-rule", Severity: Error, run: checkInvalidRule,
		Summary: "a field of a rule is out of range or malformed (what the rule reader rejects)",
		Lesson:  "an invalid document is refused as a whole: the last good rules stay in force and the change silently never happens",
	},
	{
		ID: "directive", Severity: Error, run: checkDirectives,
		Summary: "a //sentinel:resource directive does not check (the generator's own diagnostics)",
		Lesson:  "a package whose directives do not check declares no resources, so its rules cannot be judged either",
	},
	{
		ID: "unknown-resource", Severity: Error, run: checkUnknownResource,
		Summary: "a rule (or the refResource of a relate or chain rule) names a resource the code neither declares nor registers",
		Lesson:  "a rule for a misspelled or renamed resource is accepted and guards nothing",
	},
	{
		ID: "param-index", Severity: Error, run: checkParamIndex,
		Summary: "a param-flow rule's paramIdx is outside the guarded method's parameters (counted after ctx; negative from the end)",
		Lesson:  "Sentinel passes a call whose argument the index misses: the hot-parameter limit is accepted, shows in every listing and limits nothing",
	},
	{
		ID: "unknown-param", Severity: Error, run: checkUnknownParam,
		Summary: "a param-flow rule names (param = \"...\") a parameter the guarded method does not have",
		Lesson:  "a parameter renamed in the code leaves its rule behind: loading it fails, and the last good rules stay in force without the change",
	},
	{
		ID: "param-not-key", Severity: Error, run: checkParamNotKey,
		Summary: "a param-flow rule selects a parameter whose Go type cannot be a key (a struct, map, pointer, ... without a ParamFlowKey() string method)",
		Lesson:  "the wrapper hands the runtime no key for such a parameter, as Sentinel gets null, so the hot value the rule was written for is never limited",
	},
	{
		ID: "param-item-type", Severity: Error, run: checkParamItemType,
		Summary: "a param-flow item's classType gives a value of another kind than the parameter's keys (an int item on a string parameter)",
		Lesson:  "an item only matches an argument of its kind: the exception for the VIP value silently never applies and that value gets the rule's common count",
	},
	{
		ID: "conflicting-rules", Severity: Error, run: checkConflictingRules,
		Summary: "the same limiter (resource, grade, strategy, refResource, behaviour) is configured twice with different settings",
		Lesson:  "every copy is enforced, so the stricter one silently wins whatever the author of the other meant",
	},
	{
		ID: "duplicate-rule", Severity: Warning, run: checkDuplicateRules,
		Summary: "a rule is repeated identically",
		Lesson:  "a copy adds work on every call and a trap for the next edit, which will change one copy only",
	},
	{
		ID: "no-slow-breaker", Severity: Warning, run: checkNoSlowBreaker,
		Summary: "a resource has error-ratio or error-count breakers but no slow-call-ratio breaker",
		Lesson:  "\"slow but not dead\" is the common failure: a dependency that answers in 4 s instead of 80 ms throws nothing, the error ratio stays 0 and the breaker stays closed while callers pile up",
	},
	{
		ID: "min-request-amount", Severity: Warning, run: checkMinRequestAmount,
		Summary: "a breaker's minRequestAmount is below 20 (the default is 5)",
		Lesson:  "with 5 samples a low-traffic resource trips on noise: at 2 QPS one slow call in 3 s opens the breaker; take about QPS x 10, at least 20",
	},
	{
		ID: "coarse-window", Severity: Warning, run: checkCoarseWindow,
		Summary: "a QPS flow rule is judged over a window other than 1 s, or with buckets wider than 250 ms",
		Lesson:  "a 1000 QPS limit measured over a 10 s window let a load test through at about 600 QPS: a wide window averages a burst away, so count is no longer the per-second limit it reads as",
	},
	{
		ID: "breaker-without-handler", Severity: Warning, run: checkBreakerWithoutHandler,
		Summary: "a resource with degrade rules has no blockHandler, fallback or defaultFallback",
		Lesson:  "a breaker must come with a fallback: without one an open breaker reaches callers as an error page instead of a degraded answer",
	},
	{
		ID: "queue-at-edge", Severity: Warning, run: checkQueueAtEdge,
		Summary: "a rate-limiter (queueing) rule with a queueing time on an entryType=in or gateway resource",
		Lesson:  "queueing makes each request wait for its turn; at the edge that holds a goroutine and a connection per waiting request, exactly when traffic is highest",
	},
	{
		ID: "stacked-thresholds", Severity: Warning, run: checkStackedThresholds,
		Summary: "QPS limits stacked on one call path (chain or relate rules) where an inner limit always binds first",
		Lesson:  "gateway 5000, service 3000, method 1000: only the 1000 ever acts and the other two are decoration; give each layer its own job or keep one limit",
	},
	{ID: "golang-stat-interval", Severity: Warning, run: checkGolangInterval, Summary: "a Sentinel JSON flow rule carries a per-rule interval other than 1 s, as rules migrated from sentinel-golang do", Lesson: "sentinel-golang counts threshold per statIntervalInMs, the runtime counts count per second: a migrated rule with a 10 s interval is 10x looser"},
	{
		ID: "param-item-java", Severity: Warning, run: checkParamItemJava,
		Summary: "a param-flow item's classType has another width than the Go parameter (int for an int64, float for a float64): matched here, never in Java",
		Lesson:  "Java's Sentinel compares the boxed argument with the item by equals, so an Integer item never matches a Long argument (sentinel-golang misses int against int64 the same way); this runtime matches any integer class, so one rule file limits differently in Go and Java services",
	},
	{
		ID: "rule-warning", Severity: Warning, run: checkRuleWarnings,
		Summary: "the rule reader ignored something, e.g. a Sentinel JSON field it does not know",
		Lesson:  "an ignored field is a setting the author believes is in force and is not",
	},
}

// Checks returns the table of checks, in the order -list prints them. The
// slice is a copy.
func Checks() []Check {
	return append([]Check(nil), checks...)
}
