// `import RippleHTTP` brings Ripple's types (`Single`, `Observable`, schedulers)
// along: every API of this module speaks them.
@_exported import Ripple
