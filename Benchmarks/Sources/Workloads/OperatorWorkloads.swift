import Ripple

/// Workloads of operators that land with the rest of the operator family:
/// flatMap, flatMapLatest, combineLatest, share(replay:).
let operatorWorkloads: [Workload] = []
