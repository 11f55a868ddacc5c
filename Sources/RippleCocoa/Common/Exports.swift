// `import RippleCocoa` brings Ripple with it, as `import RxCocoa` brings the
// types RxSwift code binds with, and RippleCollections, whose observable arrays
// and sections it binds to table and collection views.
@_exported import Ripple
@_exported import RippleCollections
