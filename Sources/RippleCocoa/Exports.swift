@_exported import Ripple
