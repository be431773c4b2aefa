# lit configuration for ave-rewrite's end-to-end tests.
import os
import lit.formats

config.name = "ave-rewrite"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".test", ".hip"]
config.excludes = ["Inputs", "lit.cfg.py", "check_mutants.py", "check_baseline.py", "jsoncheck.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ave_binary_dir, "testdata", "e2e-out")

config.environment["PATH"] = os.pathsep.join(
    [config.ave_binary_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%ave", os.path.join(config.ave_binary_dir, "ave-rewrite") + " --color=never"))
config.substitutions.append(("%tidy_plugin", os.path.join(config.ave_binary_dir, "tidy", "ave_tidy_scope.so")))
config.substitutions.append(("%testdata", os.path.join(config.ave_source_dir, "testdata")))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%jsoncheck", config.python + " " + os.path.join(config.test_source_root, "jsoncheck.py")))
# The rewrite pipeline's execution stage keeps prepared CPU bundles here, so
# the tests share them (and the executor's runtime object) across runs.
config.environment["AVE_REWRITE_CACHE_DIR"] = os.path.join(config.ave_binary_dir, "ave-cache")
# The preamble cache (frontend/PreambleCache.h) lives there too, under pch/.
# `lit --param ave_cache=off` runs every test without it: the outputs must
# be the same either way.
config.ave_cache_off = lit_config.params.get("ave_cache", "on") == "off"
if config.ave_cache_off:
    config.environment["AVE_PCH_CACHE"] = "off"
    config.available_features.add("no-preamble-cache")
# nvcc (not a Debian package: CI machines may lack it): the tests that
# assert what the sm_90 compile reports need it; the rest accept the
# stage's "skipped".
import shutil
if shutil.which("nvcc", path=config.environment["PATH"]) or os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
    config.available_features.add("nvcc")
