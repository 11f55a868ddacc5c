// `import RippleCocoa` brings Ripple with it, as `import RxCocoa` brings the
// types RxSwift code binds with.
@_exported import Ripple
