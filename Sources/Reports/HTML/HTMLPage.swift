/// The fixed parts of the HTML report: the inline style sheet and the small inline script that
/// filters suites by status and rule, and shows only the suite a link names
/// (`report.html#suite=<suite name>`, percent-encoded). Nothing here loads from the network or
/// another file.
enum HTMLPage {
    /// The page's opening, up to and including the filter bar and the start of the report.
    /// - Parameters:
    ///   - title: the report's name, already escaped.
    ///   - version: the accord version, already escaped.
    /// - Returns: the markup.
    static func opening(title: String, version: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="accord \(version)">
        <title>\(title)</title>
        <style>\(style)</style></head>
        <body><header><h1>\(title)</h1><p class="muted">accord \(version): one section per case or recording; failing
        ones open, passing ones folded. Hover a mark of a sequence picture for its full text.</p>
        <form id="filters" class="filters" onsubmit="return false"><b>Show</b>
        <label><input type="checkbox" value="failed" checked> failed</label>
        <label><input type="checkbox" value="errored" checked> errored</label>
        <label><input type="checkbox" value="passed" checked> passed</label>
        <label><input type="checkbox" value="skipped" checked> skipped</label>
        <label>rule <select id="rule-filter"><option value="">any rule</option></select></label>
        <span id="shown" class="muted"></span></form></header>
        <main id="report">

        """
    }

    /// The page's end: the script and the closing tags.
    static let closing = "</main>\n<script>\(script)</script>\n</body></html>\n"

    static let style = """
        body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
        header{background:#1d2330;color:#fff;padding:12px 20px}header h1{font-size:18px;margin:0 0 4px}
        header .muted{color:#b8c0cc}.muted{color:#6b7382}main{display:flex;flex-direction:column;padding:12px 20px;gap:10px}
        [hidden]{display:none!important}.filters{margin-top:8px}.filters label{margin-left:12px}
        .summary{order:-1;background:#fff;border:1px solid #d9dde3;border-radius:6px;padding:10px 16px}
        .summary h2{font-size:16px;margin:0 0 6px}.verdict{font-size:15px}.verdict.bad b{color:#c62828}
        .verdict.good b{color:#2e7d32}.verdict.empty b{color:#b26a00}.tables{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
        table{border-collapse:collapse}th,td{border:1px solid #d9dde3;padding:3px 8px;text-align:left;vertical-align:top}
        th{background:#eef0f3}tr.bad td{color:#b71c1c}.rules td:last-child{max-width:520px}
        .suite{background:#fff;border:1px solid #d9dde3;border-radius:6px}.suite>details>summary{padding:8px 12px;cursor:pointer}
        .suite[data-status=failed],.suite[data-status=errored]{border-color:#e57373}.suite .body{padding:0 12px 12px}
        .badge{display:inline-block;min-width:56px;text-align:center;border-radius:10px;padding:0 8px;font-size:12px;color:#fff}
        .badge.passed{background:#2e7d32}.badge.failed{background:#c62828}.badge.errored{background:#6a1b9a}
        .badge.skipped{background:#9e9e9e}.props{font-size:12px}.picture{overflow-x:auto;margin:8px 0}
        table.cases{width:100%;font-size:13px}tr.case.failed td,tr.case.errored td{background:#fdecea}
        tr.case.skipped td{color:#6b7382}td.time{white-space:nowrap;text-align:right}
        .failure{border-left:4px solid #c62828;padding:4px 10px;margin:4px 0;background:#fff7f7}
        .failure .rule{font-weight:bold;color:#c62828}.statement{margin:2px 0;color:#37474f}.source{color:#6b7382;font-size:12px}
        pre{margin:4px 0;white-space:pre-wrap;word-break:break-all;font:12px/1.35 ui-monospace,Menlo,Consolas,monospace}
        table.diff{width:100%;table-layout:fixed}table.diff td{background:#fbfbfc;width:50%}
        .missing{background:#dde8fb;display:block}.unexpected{background:#ffd7d5;display:block}
        .suite[data-status=failed]{order:1}.suite[data-status=errored]{order:2}.suite[data-status=skipped]{order:3}.suite[data-status=passed]{order:4}
        svg.sequence{font:11px ui-monospace,Menlo,Consolas,monospace;background:#fcfcfd}
        svg .lifeline{stroke:#90a4ae;stroke-dasharray:4 3}svg rect.head{fill:#e3e8ee;stroke:#90a4ae}
        svg rect.head.server{fill:#e8eaf6}svg text{fill:#263238}svg text.head{text-anchor:middle;font-weight:bold}
        svg text.step{fill:#6b7382}svg .arrow{stroke:#37474f;stroke-width:1.4}svg path.head{fill:#37474f}
        svg .answer .arrow,svg .lost-answer .arrow{stroke-dasharray:5 3}svg .cross{stroke:#c62828;stroke-width:2}
        svg rect.box{fill:#fff8e1;stroke:#c9a227}svg .server-change rect.box{fill:#e8f5e9;stroke:#66bb6a}
        svg rect.note{fill:#f3f6fb;stroke:#90a4ae;stroke-dasharray:3 2}svg rect.kill{fill:#c62828}
        svg .kill text{fill:#fff;font-weight:bold}svg .bad .arrow{stroke:#c62828;stroke-width:2.2}svg .bad path.head{fill:#c62828}
        svg .bad text{fill:#c62828;font-weight:bold}svg .bad rect.box,svg .bad rect.note{stroke:#c62828;stroke-width:2}
        svg text.rule{fill:#c62828;font-weight:bold}svg text.omitted{fill:#6b7382}
        """

    static let script = """
        (function(){
        var boxes=document.querySelectorAll('#filters input[type=checkbox]');
        var select=document.getElementById('rule-filter');
        var suites=document.querySelectorAll('section.suite');
        var seen={},wanted='';
        try{wanted=decodeURIComponent((location.hash.match(/^#suite=(.*)$/)||[])[1]||'');}catch(e){wanted='';}
        suites.forEach(function(s){(s.getAttribute('data-rules')||'').split(' ').forEach(function(r){if(r){seen[r]=1;}});});
        Object.keys(seen).sort().forEach(function(r){var o=document.createElement('option');o.value=r;o.textContent=r;select.appendChild(o);});
        function apply(){
        var on={};boxes.forEach(function(b){if(b.checked){on[b.value]=1;}});
        var rule=select.value,shown=0;
        suites.forEach(function(s){
        var rules=' '+(s.getAttribute('data-rules')||'')+' ';
        var ok=on[s.getAttribute('data-status')]===1&&(rule===''||rules.indexOf(' '+rule+' ')>=0);
        if(wanted!==''){ok=s.getAttribute('data-name')===wanted;}
        s.hidden=!ok;if(ok){shown+=1;if(rule!==''||wanted!==''){s.querySelector('details').open=true;}}});
        document.getElementById('shown').textContent=shown+' of '+suites.length+' cases shown';
        }
        boxes.forEach(function(b){b.addEventListener('change',apply);});
        select.addEventListener('change',apply);
        document.querySelectorAll('[data-rule-filter]').forEach(function(a){a.addEventListener('click',function(e){
        e.preventDefault();select.value=a.getAttribute('data-rule-filter');apply();});});
        apply();
        })();
        """
}
