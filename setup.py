"""Metadata lives in setup.cfg; this only ships the start-up ``.pth`` files.

``src/urllib_parse_backport_shim.pth`` and ``src/ctypes_safe_patch.pth`` go to
the root of site-packages, where ``site`` runs them at start-up: they apply
``urllib_parse_backport.patch()`` when URLLIB_PARSE_BACKPORT_PATCH is set and
``ctypes_safe.patch()`` when CTYPES_SAFE_PATCH is set, and do nothing else.
"""

import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTHS = ("urllib_parse_backport_shim.pth", "ctypes_safe_patch.pth")


class build_py_with_pth(build_py):
    """build_py that also copies the ``.pth`` files to the top of the build tree."""

    def run(self):
        build_py.run(self)
        for pth in PTHS:
            self.copy_file(os.path.join("src", pth), os.path.join(self.build_lib, pth),
                           preserve_mode=0)

    def get_outputs(self, include_bytecode=1):
        return build_py.get_outputs(self, include_bytecode) + [
            os.path.join(self.build_lib, pth) for pth in PTHS]


setup(cmdclass={"build_py": build_py_with_pth})
