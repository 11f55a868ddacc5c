// `import RippleHTTPStreaming` brings RippleHTTP (and with it Ripple) along: a
// stream is requested on a `Session` with a `Request`.
@_exported import RippleHTTP
