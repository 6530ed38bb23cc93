"""Build the Cython extensions and generate the gRPC code; all metadata lives in pyproject.toml.

Every .pyx under src/engine_core is one extension module (games/<game>/rules.pyx includes the
shared engine, _engine.pxi). Optimised by default (-O3, portable: no -march). STICH_NATIVE=1
adds -march=native for a machine-specific build (do not ship such wheels).
"""
import glob
import os
import runpy
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = sorted(glob.glob("src/engine_core/**/*.pyx", recursive=True))

compile_args = [] if sys.platform == "win32" else ["-O3"]
if os.environ.get("STICH_NATIVE") == "1" and sys.platform != "win32":
    compile_args.append(os.environ.get("STICH_MARCH", "-march=native"))

# proto/stich/v1 -> src/service/gen (grpcio-tools is a build requirement).
if os.path.exists(os.path.join(HERE, "tools", "gen_proto.py")):
    runpy.run_path(os.path.join(HERE, "tools", "gen_proto.py"))["generate"]()

extensions = [
    Extension(path[len("src/"):-len(".pyx")].replace("/", "."), [path], extra_compile_args=compile_args)
    for path in SOURCES
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        include_path=["src"],
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
            "embedsignature": True,
        },
    ),
)
