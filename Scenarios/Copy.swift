// The words the person sees, written out once for the scenarios (from the specification).
let ready = "Point at an asset tag, or a pairing code on your Mac when it is running."
let accessOff = "Camera access is off. Turn it on in Settings, or add it by hand."
let cannotScan = "This device cannot scan. Add it by hand instead."
let busy = "The camera is busy. Another app is using it. Close it and come back, or add it by hand."
let stopped = "The scanner stopped. Add it by hand instead."
let allRoutes = ["Photograph a serial instead", "Sweep a rack instead", "Add it by hand"]
let onlyByHand = ["Add it by hand"]

/// A fault as the command line writes it, with the sentence the sheet shows for it.
let faultKinds: [(fault: String, sentence: String)] = [
    ("denied", accessOff), ("no-accelerator", cannotScan), ("busy", busy), ("stopped", stopped),
]
