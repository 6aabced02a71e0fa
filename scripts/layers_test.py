#!/usr/bin/env python3
"""Tests for scripts/layers: tiny fake package trees in a temporary folder, one per violation kind.

    python3 scripts/layers_test.py
"""
import contextlib, importlib.machinery, importlib.util, io, os, tempfile, textwrap, unittest

HERE = os.path.dirname(os.path.abspath(__file__))
_loader = importlib.machinery.SourceFileLoader("layers", os.path.join(HERE, "layers"))
_spec = importlib.util.spec_from_loader("layers", _loader)
layers = importlib.util.module_from_spec(_spec)
_loader.exec_module(layers)

PACKAGE = """\
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "Fake",
    products: [.library(name: "Corpus", targets: ["Corpus"])],
    targets: [
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        .target(name: "KizunaWire"),
        .target(name: "Corpus", dependencies: ["KizunaWire", "CLinux"]),
        .target(
            name: "Lanes",
            dependencies: [
                "Corpus",
                .product(name: "KizunaWire", package: "elsewhere"),
            ]),
        .executableTarget(name: "accord", dependencies: ["Lanes"]),
        .testTarget(name: "CorpusTests", dependencies: [.target(name: "Corpus")]),
    ]
)
"""
CLEAN = {
    "Sources/KizunaWire/JSON.swift": """\
        // import Corpus would be an up-arrow, but this is a comment
        /* import Lanes /* nested */ import accord */
        public struct JSON {
            func write(_ x: Int) { write(x - 1) }   // its own method, not write(2)
            func dump() { write(1); self.read(2) }
            let python = \"\"\"
                import socket
                open("x")
                \"\"\"
            let s = "FileManager.default open(" + #"fopen("a")"#
        }
        """,
    "Sources/CLinux/module.modulemap": "module CLinux [system] { header \"shim.h\" }\n",
    "Sources/Corpus/Loader.swift": """\
        import Foundation
        public import KizunaWire
        @preconcurrency internal import CLinux
        struct Loader { let files: Files; func load() throws { try files.read("m") } }
        """,
    "Sources/Lanes/Disk.swift": """\
        import Foundation
        import Corpus
        import KizunaWire
        let handle = FileHandle.standardInput   // I/O is fine outside the pure layers
        """,
    "Sources/accord/main.swift": "import Lanes\n",
    "Tests/CorpusTests/LoaderTests.swift": "import Testing\n@testable import Corpus\n",
}


class LayersTest(unittest.TestCase):
    def tree(self, package=PACKAGE, **files):
        """A fake package folder: CLEAN with `files` replacing or adding (keyword paths: __ for /, _swift for .swift)."""
        root = tempfile.mkdtemp(prefix="layers-test-")
        self.addCleanup(lambda: __import__("shutil").rmtree(root))
        contents = dict(CLEAN)
        contents.update({k.replace("__", "/").replace("_swift", ".swift"): v for k, v in files.items()})
        for path, text in contents.items():
            if text is None: continue
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f: f.write(textwrap.dedent(text))
        with open(os.path.join(root, "Package.swift"), "w", encoding="utf-8") as f: f.write(package)
        return root

    def lines(self, root, kind=None):
        _, _, found = layers.check(root)
        return [line for k, line in found if kind is None or k == kind]

    def run_main(self, *args):
        out = io.StringIO()
        with contextlib.redirect_stdout(out): code = layers.main(list(args))
        return code, out.getvalue()

    def test_parses_targets_and_dependency_forms(self):
        targets = {t["name"]: t for t in layers.parse_package(self.tree())}
        self.assertEqual(sorted(targets), sorted(["CLinux", "KizunaWire", "Corpus", "Lanes", "accord", "CorpusTests"]))
        self.assertEqual([d for d, _ in targets["Lanes"]["deps"]], ["Corpus", "KizunaWire"])
        self.assertEqual([d for d, _ in targets["CorpusTests"]["deps"]], ["Corpus"])
        self.assertEqual(targets["CorpusTests"]["dir"], "Tests/CorpusTests")
        self.assertEqual(targets["CLinux"]["kind"], "systemLibrary")
        self.assertEqual(targets["Lanes"]["deps"][1][1], 14)  # the line of the .product form

    def test_clean_tree_passes(self):
        root = self.tree()
        self.assertEqual(self.lines(root), [])
        self.assertEqual(self.run_main("--root", root, "--strict"), (0, "layers: 0 violation(s) (up-arrow: 0, "
                         "undeclared-import: 0, unused-dependency: 0, pure-io: 0, unassigned: 0)\n"))

    def test_up_arrow_by_declaration_and_by_import(self):
        package = PACKAGE.replace('.target(name: "KizunaWire")', '.target(name: "KizunaWire", dependencies: ["Corpus"])')
        root = self.tree(package, Sources__KizunaWire__Up_swift="import Corpus\n", Sources__Corpus__Up_swift="import Lanes\n")
        up = self.lines(root, "up-arrow")
        self.assertIn("layers: up-arrow: KizunaWire (KizunaWire) -> Corpus (Corpus) (Package.swift:8)", up)
        self.assertIn("layers: up-arrow: Corpus (Corpus) -> Lanes (lanes) (Sources/Corpus/Up.swift:1)", up)
        self.assertEqual(len(up), 2)

    def test_arrow_inside_a_layer_is_an_up_arrow(self):
        package = PACKAGE.replace('.target(name: "KizunaWire")', '.target(name: "KizunaWire"), .target(name: "HTTP"), '
                                  '.target(name: "Transport", dependencies: ["HTTP"])')
        root = self.tree(package, Sources__HTTP__A_swift="struct A {}\n", Sources__Transport__B_swift="import HTTP\n")
        self.assertEqual(self.lines(root, "up-arrow"),
                         ["layers: up-arrow: Transport (transports) -> HTTP (the same layer, transports) (Package.swift:8)"])

    def test_undeclared_import(self):
        root = self.tree(**{"Sources/accord/main.swift": "import Lanes\nimport Corpus\nimport Mystery\n"})
        self.assertEqual(self.lines(root, "undeclared-import"), [
            "layers: undeclared-import: accord imports Corpus without declaring it (a target of the package) "
            "(Sources/accord/main.swift:2)",
            "layers: undeclared-import: accord imports Mystery without declaring it (not a target of the package) "
            "(Sources/accord/main.swift:3)"])

    def test_unused_dependency(self):
        root = self.tree(**{"Sources/Lanes/Disk.swift": "import Corpus\n"})
        self.assertEqual(self.lines(root, "unused-dependency"), [
            "layers: unused-dependency: Lanes declares KizunaWire but no file of Sources/Lanes imports it (Package.swift:14)"])

    def test_pure_io(self):
        root = self.tree(Sources__Corpus__Writer_swift="""\
            import Glibc
            func save(_ path: String) {
                let fd = open(path, O_WRONLY)   // open(2)
                _ = fsync(fd)
                let t = Thread { }
                DispatchQueue.global().async { }
                let m = FileManager.default
                let now = ContinuousClock.now
                x.open(path); y.write(1)         // methods, not calls of libc
            }
            """)
        pure = self.lines(root, "pure-io")
        where = [line.rsplit("(", 1)[1] for line in pure]
        self.assertEqual(where, ["Sources/Corpus/Writer.swift:%d)" % n for n in (3, 4, 5, 6, 7, 8)])
        self.assertIn("file `fsync(`", pure[1])
        self.assertIn("thread `Thread {`", pure[2])
        code, out = self.run_main("--root", root, "--strict")
        self.assertEqual(code, 1)
        self.assertTrue(out.endswith("pure-io: 6, unassigned: 0)\n"))
        self.assertEqual(self.run_main("--root", root)[0], 0)

    def test_unassigned_target(self):
        package = PACKAGE.replace('.target(name: "KizunaWire")', '.target(name: "KizunaWire"), .target(name: "Gadget")')
        root = self.tree(package, Sources__Gadget__G_swift="struct G {}\n")
        self.assertEqual(self.lines(root, "unassigned"), ["layers: unassigned: Gadget has no layer in scripts/layers (Package.swift:8)"])

    def test_graph(self):
        root = self.tree()
        code, out = self.run_main("--root", root, "--graph")
        self.assertEqual(code, 0)
        self.assertTrue(out.startswith("```mermaid\ngraph TD\n"))
        self.assertIn('subgraph L0["0 · system libraries"]\n        CLinux\n    end', out)
        self.assertIn("    Lanes --> Corpus\n", out)
        self.assertLess(out.index("accord"), out.index("KizunaWire"))  # top layer first
        self.assertNotIn("CorpusTests", out)
        self.assertIn("    CorpusTests --> Corpus\n", self.run_main("--root", root, "--graph", "--tests")[1])

    def test_mermaid_is_the_graph(self):
        root = self.tree()
        self.assertEqual(self.run_main("--root", root, "--mermaid"), self.run_main("--root", root, "--graph"))

    def test_polling_finds_a_sleep_inside_a_loop(self):
        root = self.tree(Sources__Lanes__Wait_swift="""\
            func wait() async {
                while !done { try? await Task.sleep(for: .milliseconds(2)) }
                while !state.withLock({ $0.released }) && now < deadline {
                    Thread.sleep(forTimeInterval: 0.001)
                }
                for _ in 0..<3 { Task { usleep(10) } }
                repeat { nanosleep(&t, nil) } while busy
            }
            """)
        code, out = self.run_main("--root", root, "--polling")
        self.assertEqual(code, 1)
        where = [line.rsplit("(", 1)[1] for line in out.splitlines()[:-1]]
        self.assertEqual(where, ["Sources/Lanes/Wait.swift:%d)" % n for n in (2, 4, 6, 7)])
        self.assertIn("layers: polling: `Thread.sleep` inside a loop", out)
        self.assertTrue(out.endswith("layers: 4 polling wait(s)\n"))

    def test_polling_leaves_timeouts_allowed_lines_and_comments(self):
        root = self.tree(Sources__Lanes__Timeout_swift="""\
            func race(timeout: Duration) async {
                group.addTask { try? await Task.sleep(for: timeout) }   // a timeout, not a loop
                while ticking {
                    try? await Task.sleep(for: .seconds(1))  // polling-allowed: a status line once a second
                    // Thread.sleep(forTimeInterval: 1) in a comment
                    let s = "usleep(1)"
                }
                repeat { step() } while more
                Task.sleep(for: .seconds(1))
            }
            """)
        self.assertEqual(self.run_main("--root", root, "--polling"), (0, "layers: 0 polling wait(s)\n"))


if __name__ == "__main__":
    unittest.main()
