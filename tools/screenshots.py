"""Check the built docs in a real browser: nothing an operator needs scrolls sideways.

    bash tools/matrix -e docs                      # builds .tox/docs/tmp/html
    python3 tools/screenshots.py [HTML_DIR] [--shots DIR] [--width 1280 --width 390]

For each page of the built site and each width (default 1280 px, a laptop,
and 390 px, a phone), headless Chromium (Debian's ``chromium``: ``apt-get
install chromium``) loads a copy of the page with a small script added that
lists every table and code box whose content is wider than its box (its
``scrollWidth`` exceeds its ``clientWidth``: the reader would have to scroll
it sideways). Prints them and exits 1 if any is found at 1280 px; at
narrower widths they are reported only (a phone scrolls wide tables).
``--shots DIR`` also saves a screenshot of each page at each width.
"""

from __future__ import print_function

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HTML = os.path.join(ROOT, ".tox", "docs", "tmp", "html")
BROWSERS = ("chromium", "chromium-browser", "google-chrome")

#: Added before </body>: marks the page with what overflows, as JSON.
SCRIPT = """<script>
window.addEventListener("load", function () {
  var found = [];
  document.querySelectorAll(".table-wrapper, table.docutils, pre").forEach(function (box) {
    if (box.scrollWidth > box.clientWidth + 1) {
      var text = (box.innerText || "").trim().split("\\n")[0].slice(0, 60);
      found.push([box.tagName.toLowerCase(), box.scrollWidth, box.clientWidth, text]);
    }
  });
  document.body.setAttribute("data-overflow", JSON.stringify(found));
});
</script>"""

MARK = re.compile(r'data-overflow="([^"]*)"')


def browser():
    for name in BROWSERS:
        path = shutil.which(name) if hasattr(shutil, "which") else None
        if path:
            return path
    raise SystemExit("tools/screenshots.py: no Chromium: run 'apt-get install chromium'")


def run(chromium, args):
    return subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", "--virtual-time-budget=3000"] + args,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          universal_newlines=True, timeout=120).stdout


def overflowing(chromium, page, width):
    """``[(tag, content width, box width, first line)]`` on *page* at *width* px."""
    dom = run(chromium, ["--window-size=%d,900" % width, "--dump-dom", "file://" + page])
    found = MARK.search(dom)
    if found is None:
        return [("page", 0, 0, "the check did not run")]
    import html
    return json.loads(html.unescape(found.group(1)))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", nargs="?", default=HTML)
    parser.add_argument("--width", type=int, action="append")
    parser.add_argument("--shots", help="save a screenshot of each page at each width here")
    args = parser.parse_args(argv)
    widths = args.width or [1280, 390]
    chromium = browser()
    copy = tempfile.mkdtemp(prefix="docs-check-")
    failed = False
    try:
        site = os.path.join(copy, "html")
        shutil.copytree(args.html, site)
        pages = sorted(name for name in os.listdir(site) if name.endswith(".html")
                       and name not in ("genindex.html", "search.html", "py-modindex.html"))
        for name in pages:
            path = os.path.join(site, name)
            with open(path) as handle:
                text = handle.read()
            with open(path, "w") as handle:
                handle.write(text.replace("</body>", SCRIPT + "</body>"))
            for width in widths:
                for tag, wide, box, line in overflowing(chromium, path, width):
                    fatal = width >= 1280
                    failed = failed or fatal
                    print("%s %s at %d px: %s %d px in %d px: %s" % (
                        "FAIL" if fatal else "note", name, width, tag, wide, box, line))
                if args.shots:
                    if not os.path.isdir(args.shots):
                        os.makedirs(args.shots)
                    shot = os.path.join(os.path.abspath(args.shots),
                                        "%s-%d.png" % (name[:-5], width))
                    run(chromium, ["--window-size=%d,2400" % width, "--screenshot=" + shot,
                                   "file://" + path])
    finally:
        shutil.rmtree(copy)
    print("%d pages at %s px: %s" % (len(pages), ", ".join(map(str, widths)),
                                     "something scrolls sideways at 1280 px" if failed
                                     else "nothing scrolls sideways at 1280 px"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
