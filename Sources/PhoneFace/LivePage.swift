/// The page of `fieldrig live --web`: the newest camera frame with the boxes of what was read,
/// the phone beside it, the person's actions as buttons (the terminal's keys as shortcuts), and
/// controls for the phone's world. It updates from the server's event stream; everything it
/// needs is in the page, so it works with no network beyond the rig itself.
public enum LivePage {
    /// A control for what the phone's world does: its title and the action it sends.
    public struct Control: Sendable {
        public var title: String
        public var action: String

        public init(_ title: String, _ action: String) {
            self.title = title
            self.action = action
        }
    }

    /// The page, with the phone as it is when the page is asked for.
    public static func html(source: String, phone: String, controls: [(group: String, controls: [Control])], shortcuts: String) -> String {
        TracePages.document(title: "fieldrig live: \(source)") { m in
            m.element("header", [("class", "page")]) { m in
                m.element("h1", [], "fieldrig live")
                m.element("span", [("class", "meta")], "camera: \(source)")
                m.element("span", [("class", "meta"), ("id", "rates")], "connecting…")
                m.element("span", [("class", "meta"), ("id", "status")], "")
                m.element("span", [("class", "meta"), ("id", "reading")], "")
                m.element("span", [("class", "meta recording"), ("id", "recording")], "")
            }
            m.element("main", [("class", "live")]) { m in
                m.element("div", [("id", "camera")]) { m in
                    m.element("figure", [("class", "frame")]) { m in
                        m.element("div", [("class", "picture"), ("id", "picture")]) { m in
                            m.open("img", [("id", "frame"), ("alt", "the newest camera frame"), ("width", "640"), ("height", "360")])
                            m.element("div", [("id", "marks")], "")
                        }
                        m.element("figcaption", [("id", "caption")], "Waiting for the first frame…")
                    }
                    m.element("div", [("id", "controls")]) { m in
                        for (group, controls) in controls {
                            m.element("div", [("class", "group")]) { m in
                                m.element("h3", [], group)
                                for control in controls {
                                    m.element(
                                        "button", [("type", "button"), ("class", "button"), ("data-key", control.action)], control.title)
                                }
                            }
                        }
                    }
                    m.element("p", [("class", "detail")], "Keys: " + shortcuts)
                }
                m.element("div", [("id", "phone")]) { $0.raw(phone) }
            }
            m.element("pre", [("id", "log")], "")
            m.element("script", []) { $0.raw(script) }
        }
    }

    /// Follows the event stream: each message is the newest state, `{"phone", "frame", "width",
    /// "height", "marks", "caption", "log", "cameraFps", "reading", "recording"}` (the reading's rates, what the recording
    /// is doing); a frame number that changed loads the
    /// frame, and its marks and caption are shown with it once it has loaded (the next is asked
    /// for only then, so a slow page skips frames).
    static let script = """
        "use strict";
        const phone = document.getElementById("phone"), img = document.getElementById("frame");
        const marks = document.getElementById("marks"), caption = document.getElementById("caption");
        const log = document.getElementById("log"), rates = document.getElementById("rates"), status = document.getElementById("status");
        const reading = document.getElementById("reading"), recording = document.getElementById("recording");
        let wanted = null, loading = false, shownAt = [], cameraFps = 0, updates = 0;
        function loadFrame() {
          if (loading || wanted === null || img.dataset.frame === String(wanted.frame)) return;
          loading = true;
          const s = wanted, next = new Image();
          next.onload = () => {
            img.src = next.src; img.width = s.width; img.height = s.height; img.dataset.frame = String(s.frame);
            marks.innerHTML = s.marks; caption.textContent = s.caption;
            loading = false; shownAt.push(performance.now()); loadFrame(); };
          next.onerror = () => { loading = false; };
          next.src = "frame.jpg?n=" + s.frame;
        }
        function showRates() {
          const now = performance.now();
          shownAt = shownAt.filter(t => now - t < 2000);
          rates.textContent = "camera " + cameraFps.toFixed(1) + " fps · page " + (shownAt.length / 2).toFixed(1) + " frames/s";
        }
        setInterval(showRates, 500);
        const events = new EventSource("events");
        events.onopen = () => { status.textContent = "live"; };
        events.onerror = () => { status.textContent = "not connected: is fieldrig live still running?"; };
        events.onmessage = (e) => {
          const s = JSON.parse(e.data);
          updates += 1;
          document.body.dataset.updates = String(updates);
          if (s.phone !== undefined && phone.dataset.html !== s.phone) { phone.innerHTML = s.phone; phone.dataset.html = s.phone; }
          if (s.frame) { wanted = s; loadFrame(); }
          if (s.log) log.textContent = s.log.join("\\n");
          if (s.cameraFps !== undefined) cameraFps = s.cameraFps;
          if (s.reading) reading.textContent = s.reading;
          if (s.recording !== undefined) { recording.textContent = s.recording; recording.dataset.on = String(s.recording.startsWith("●")); }
        };
        // Actions go one at a time, each after the last one's answer, so the rig takes them in
        // the order they were pressed.
        let sending = Promise.resolve();
        function send(key) {
          const post = () => fetch("action", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key: key }) });
          sending = sending.then(post).catch(() => {});
        }
        document.addEventListener("click", (e) => {
          const target = e.target.closest("[data-key]");
          if (target && !target.disabled) send(target.dataset.key);
        });
        document.addEventListener("keydown", (e) => {
          if (e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1) return;
          if ("vondsbfuac123456789".includes(e.key)) send(e.key);
        });
        """
}
