/// The page `export --format html` writes around a run's data: inline CSS and JS only (a
/// Content-Security-Policy forbids any request), so it opens from `file://` and as a CI artifact.
/// The time view draws only the window on screen (marks merged per 3 px); the sequence view (one
/// column per event) draws the 200-event chunks on screen; so a 100,000-event run
/// stays quick. Every mark carries `data-seq` (its event's `seq`).
package enum TimelinePage {
  /// The page up to its data: the policy allows its own style and `script` (by hash) and nothing else.
  package static func head(title: String, script: String = TimelinePage.script) -> String {
    """
      <!doctype html><html lang="en"><head><meta charset="utf-8">
      \(HTMLText.policy(style: style, script: script))
      <title>\(HTMLText.escaped(title))</title><style>\(style)</style></head><body>
      <header><h1 id="title"></h1><div id="outcome"></div><div id="repro"></div>
      <div class="tools"><input id="search" type="search" placeholder="Filter marks by name (e.g. viewDidLoad)" autocomplete="off">
      <span id="count"></span> <button id="fit" type="button">Fit time view</button>
      <span class="hint">Time view: wheel to zoom, drag to pan. Hover or click a mark for its details.</span></div></header>
      <section><h2>Time view <small>(virtual time)</small></h2><div id="tv"></div><div id="axis"></div></section>
      <section><h2>Sequence view <small>(one column per event, in order)</small></h2><div id="sq"><div id="sqlabels"></div><div id="seq"><div id="seqinner"></div></div></div></section>
      <aside id="details">Hover or click a mark to see its details.</aside>
      """
  }

  /// The `<style>` element's text.
  package static let style = HTMLText.style(css)

  static let css = """
    body{font:13px/1.35 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
    header{padding:10px 14px;background:#fff;border-bottom:1px solid #d8dce3}
    h1{font-size:17px;margin:0 0 4px}h2{font-size:13px;margin:10px 14px 4px}small{color:#687082;font-weight:normal}
    #outcome .pass{color:#0a7d32;font-weight:600}#outcome .fail{color:#c4162a;font-weight:600}
    #repro code{background:#eef0f4;padding:1px 5px;border-radius:3px;user-select:all}
    .tools{margin-top:6px}#search{width:320px;padding:3px 6px}.hint{color:#687082;margin-left:8px}
    #tv,#sq{margin:0 14px;background:#fff;border:1px solid #d8dce3}
    .lane{display:flex;border-bottom:1px solid #eceef2;height:20px}.lane.tall{height:30px}
    .lbl{width:170px;flex:none;padding:2px 6px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;color:#44506a;border-right:1px solid #d8dce3;background:#fafbfc}
    .plot{position:relative;flex:1;overflow:hidden;cursor:grab}
    .band{position:absolute;top:2px;bottom:2px;font-size:10px;color:#fff;overflow:hidden;white-space:nowrap;padding-left:2px;box-sizing:border-box;border-right:1px solid #fff}
    .s-not_running{background:#b5bac4}.s-running,.s-active,.s-foregroundActive,.s-appeared{background:#2e9d5b}
    .s-inactive,.s-foregroundInactive,.s-appearing,.s-disappearing{background:#e0a526}.s-background{background:#3f73c9}
    .s-suspended,.s-prewarmed{background:#7d5bb8}.s-unattached,.s-disappeared{background:#d5d9e0;color:#44506a}.s-task{background:#4a8fb0}
    .m{position:absolute;height:12px;min-width:4px;margin-top:3px;border-radius:2px;cursor:pointer}
    .k-input{background:#0f8fa8}.k-callback{background:#2a6fdb}.k-call{background:#8a56c2}.k-notification{background:#d97b0c}
    .k-system{background:#59606e}.k-expect{background:#0a7d32}.k-note{background:#a63f8f}.k-crash{background:#c4162a}
    .m.flag{background:#c4162a;outline:2px solid #ffd1d6}.m.killed{background:repeating-linear-gradient(45deg,#2a6fdb 0 3px,#c4162a 3px 6px)}
    .m.sel{outline:2px solid #111}
    #axis{position:relative;height:18px;margin:0 14px 0 185px;color:#687082;font-size:11px}#axis span{position:absolute;border-left:1px solid #b5bac4;padding-left:2px;white-space:nowrap}
    #sq{display:flex}#sqlabels{flex:none;width:170px}#seq{flex:1;overflow-x:auto;overflow-y:hidden;position:relative}
    #seqinner{position:relative}.chunk{position:absolute;top:0}.strip{position:absolute;top:2px;height:10px;width:16px}
    #sqlabels .lbl{height:20px;box-sizing:border-box;border-bottom:1px solid #eceef2}#sqlabels .strip-lbl{height:14px}
    #details{position:fixed;right:10px;bottom:10px;width:420px;max-height:45vh;overflow:auto;background:#fff;border:1px solid #b5bac4;box-shadow:0 2px 8px #0002;padding:8px 10px;white-space:pre-wrap;font:12px/1.4 ui-monospace,monospace}
    svg{position:absolute;left:0;top:0}
    .vname{position:absolute;width:16px;height:186px;writing-mode:vertical-rl;font-size:11px;line-height:16px;overflow:hidden;white-space:nowrap;color:#44506a}.vname.flag{color:#c4162a;font-weight:600}
    #axis span:last-child{transform:translateX(-100%);border-left:none;border-right:1px solid #b5bac4;padding-right:2px}
    """
}
