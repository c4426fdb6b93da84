"""The packages' sources read with ``ast``, never imported: their modules and imports.

tests/test_design.py checks every package with them; a package's own design
checks (its rooms) live in its test folder.
"""

import ast
import importlib
import os


def modules(package):
    """``(dotted name, path)`` of every module of *package*, subpackages included."""
    root = os.path.dirname(os.path.abspath(importlib.import_module(package).__file__))
    for directory, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if os.path.isfile(
            os.path.join(directory, f, "__init__.py")))
        prefix = ".".join([package] + os.path.relpath(directory, root).split(os.sep)) \
            if directory != root else package
        for name in sorted(files):
            if name.endswith(".py"):
                yield prefix + ("" if name == "__init__.py" else "." + name[:-3]), \
                    os.path.join(directory, name)


def imports(module, path):
    """Every module *module* imports, at any depth of its code (absolute names)."""
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    with open(path) as handle:
        tree = ast.parse(handle.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = base + "." + node.module if node.module else base
                found.add(base)
                found.update(base + "." + alias.name for alias in node.names)
            else:
                found.add(node.module)
                found.update(node.module + "." + alias.name for alias in node.names)
    return found
