"""Metadata lives in setup.cfg; this only ships the start-up ``.pth`` file.

``src/urllib_parse_backport_shim.pth`` goes to the root of site-packages, where
``site`` runs it at start-up: it applies ``urllib_parse_backport.patch()`` when
URLLIB_PARSE_BACKPORT_PATCH is set, and does nothing else.
"""

import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "urllib_parse_backport_shim.pth"


class build_py_with_pth(build_py):
    """build_py that also copies the ``.pth`` file to the top of the build tree."""

    def run(self):
        build_py.run(self)
        self.copy_file(os.path.join("src", PTH), os.path.join(self.build_lib, PTH),
                       preserve_mode=0)

    def get_outputs(self, include_bytecode=1):
        return build_py.get_outputs(self, include_bytecode) + [
            os.path.join(self.build_lib, PTH)]


setup(cmdclass={"build_py": build_py_with_pth})
