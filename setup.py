"""Build the Cython extensions and generate the gRPC code; all metadata lives in pyproject.toml.

Optimised by default (-O3, portable: no -march). STICH_NATIVE=1 adds -march=native for a
machine-specific build (do not ship such wheels).
"""
import glob
import os
import runpy
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

# Every .pyx under src/engine_core is one extension module.
MODULES = sorted(os.path.basename(p)[:-4] for p in glob.glob("src/engine_core/*.pyx"))

compile_args = [] if sys.platform == "win32" else ["-O3"]
if os.environ.get("STICH_NATIVE") == "1" and sys.platform != "win32":
    compile_args.append("-march=native")

# proto/stich/v1 -> src/service/gen (grpcio-tools is a build requirement and a dependency).
runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools", "gen_proto.py"))["generate"]()

extensions = [
    Extension(f"engine_core.{name}", [f"src/engine_core/{name}.pyx"], extra_compile_args=compile_args)
    for name in MODULES
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
            "embedsignature": True,
        },
    ),
)
