/// The one style sheet of every page: the phone, the camera frame with its marks, traces.
/// Inline in each page, so a page opened from disk or offline needs nothing from elsewhere.
public enum PageStyle {
    public static let css = """
        :root { color-scheme: light; font-family: -apple-system, "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; }
        body { margin: 0; background: #eef0f3; color: #1c1c1e; }
        header.page { padding: 10px 16px; background: #1c1c1e; color: #f2f2f7; display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
        header.page h1 { font-size: 17px; margin: 0; }
        header.page .meta { font-size: 13px; color: #c7c7cc; }
        header.page .recording[data-on="true"] { color: #ff453a; font-weight: 600; }
        main.live .phone { min-height: 700px; }
        #picture #marks svg { position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none; }
        main.live { display: flex; gap: 20px; padding: 16px; align-items: flex-start; flex-wrap: wrap; }
        .phone { width: 390px; min-height: 420px; background: #fff; border: 12px solid #1c1c1e; border-radius: 44px;
          box-shadow: 0 8px 30px rgba(0,0,0,.2); display: flex; flex-direction: column; overflow: hidden; }
        .phone .notch { width: 140px; height: 24px; background: #1c1c1e; border-radius: 0 0 16px 16px; margin: 0 auto 8px; }
        .phone .screens { flex: 1; padding: 0 16px; }
        .screen h2 { font-size: 22px; margin: 8px 0; }
        .screen h3 { font-size: 18px; margin: 8px 0; }
        .sentence { font-size: 16px; line-height: 1.35; margin: 6px 0 12px; }
        .routes { display: flex; flex-direction: column; gap: 6px; margin: 8px 0; }
        .button { font: inherit; font-size: 15px; padding: 9px 12px; border-radius: 10px; border: 1px solid #c7c7cc; background: #f2f2f7;
          color: #0a60d0; cursor: pointer; text-align: left; }
        .button.primary { background: #0a60d0; color: #fff; border-color: #0a60d0; font-weight: 600; }
        .button[disabled] { color: #8e8e93; background: #f2f2f7; border-color: #e5e5ea; cursor: default; }
        .card { margin: 12px 0; padding: 12px; border-radius: 14px; background: #f2f7ff; border: 1px solid #b9d3f7; }
        .card .tag { font-family: "DejaVu Sans Mono", monospace; font-size: 15px; color: #3a3a3c; }
        .card .name { font-size: 19px; font-weight: 600; margin: 2px 0; }
        .card .reason { font-size: 14px; color: #3a3a3c; margin-bottom: 8px; }
        .card .actions { display: flex; gap: 6px; flex-wrap: wrap; }
        .confirmation { font-weight: 600; color: #1b7f3a; margin: 8px 0 0; }
        .confirmation.refused { color: #b3261e; }
        .offer ul, .seen, .account, .rows, .queue-rows { padding-left: 18px; margin: 6px 0; }
        .value { font-family: "DejaVu Sans Mono", monospace; font-weight: 600; margin-right: 8px; }
        .where, .detail { display: block; font-size: 12px; color: #6c6c70; }
        .row { padding: 6px; border-radius: 8px; cursor: pointer; }
        .row.chosen { background: #dbe9fd; }
        .toolbar { display: flex; gap: 8px; margin: 10px 0; }
        .number { font-size: 34px; letter-spacing: 4px; font-weight: 600; text-align: center; }
        .history .actor.faint { color: #8e8e93; }
        footer.queue { border-top: 1px solid #e5e5ea; padding: 8px 16px 14px; font-size: 14px; background: #fafafa; }
        footer.queue .heading { font-weight: 600; }
        .empty { color: #8e8e93; }
        figure.frame { margin: 0; }
        figure.frame .picture { position: relative; display: inline-block; line-height: 0; }
        figure.frame img { display: block; max-width: 100%; height: auto; background: #888; }
        figure.frame svg.marks { position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none; }
        .mark rect { fill: none; stroke-width: 3; vector-effect: non-scaling-stroke; }
        .mark text { paint-order: stroke; stroke: #fff; stroke-width: 3px; font-family: "DejaVu Sans", sans-serif; }
        .mark.proven rect { stroke: #1b7f3a; } .mark.proven text { fill: #1b7f3a; font-weight: 700; }
        .mark.barcode rect { stroke: #0a60d0; } .mark.barcode text { fill: #0a60d0; }
        .mark.text rect { stroke: #d08a0a; } .mark.text text { fill: #8a5a00; }
        figcaption { font-size: 12px; color: #3a3a3c; line-height: 1.3; padding-top: 4px; }
        #camera { flex: 1 1 480px; max-width: 900px; }
        #controls { display: flex; gap: 16px; flex-wrap: wrap; margin-top: 12px; }
        #controls .group { display: flex; flex-direction: column; gap: 6px; }
        #controls h3 { margin: 0 0 2px; font-size: 14px; }
        #log { font: 12px "DejaVu Sans Mono", monospace; white-space: pre-wrap; margin: 0 16px 16px; max-height: 220px; overflow: auto;
          background: #fff; padding: 8px; border-radius: 8px; }
        table.results { border-collapse: collapse; margin: 16px; background: #fff; font-size: 14px; }
        table.results td, table.results th { padding: 5px 10px; border-bottom: 1px solid #e5e5ea; text-align: left; vertical-align: top; }
        .pass { color: #1b7f3a; font-weight: 600; } .fail { color: #b3261e; font-weight: 700; }
        ol.steps { list-style: none; padding: 0 16px; }
        ol.steps > li { background: #fff; border-radius: 12px; margin: 12px 0; padding: 12px; display: grid;
          grid-template-columns: minmax(280px, 1fr) 414px; gap: 16px; }
        ol.steps > li.failed { border: 3px solid #b3261e; }
        .step-head { font-size: 14px; } .step-head .clock { font-family: "DejaVu Sans Mono", monospace; color: #6c6c70; margin-right: 8px; }
        .step-head .location { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; color: #6c6c70; display: block; }
        .step-head .text { font-weight: 600; }
        .failure { background: #fdecea; border-radius: 8px; padding: 8px; margin-top: 8px; font-size: 14px; }
        .failure dt { font-weight: 700; } .failure dd { margin: 0 0 6px 0; }
        .filmstrip { display: flex; gap: 6px; overflow-x: auto; margin-top: 8px; }
        .filmstrip figure.frame { width: 200px; flex: none; }
        .world { font-size: 13px; color: #3a3a3c; margin-top: 8px; }
        """
}
