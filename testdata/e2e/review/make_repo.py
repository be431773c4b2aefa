"""Builds a scratch git repository for the review tests.

make_repo.py DIR BASE [NAME=FILE ...]: DIR/kernels/gemm.hip is BASE on the
branch main (one commit); each NAME=FILE adds a branch NAME off main whose
one commit replaces kernels/gemm.hip by FILE. Extra files can be added to
the base with PATH:=FILE (copied to PATH in the repository).
"""
import os
import shutil
import subprocess
import sys


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
               GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
    subprocess.run(["git", "-C", repo, "-c", "init.defaultBranch=main", *args], check=True,
                   env=env, stdout=subprocess.DEVNULL)


def main():
    repo, base, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    if os.path.exists(repo):
        shutil.rmtree(repo)
    os.makedirs(os.path.join(repo, "kernels"))
    git(repo, "init", "-q")
    shutil.copy(base, os.path.join(repo, "kernels", "gemm.hip"))
    for item in rest:
        if ":=" in item:
            path, source = item.split(":=", 1)
            os.makedirs(os.path.dirname(os.path.join(repo, path)) or repo, exist_ok=True)
            shutil.copy(source, os.path.join(repo, path))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    for item in rest:
        if ":=" in item:
            continue
        name, source = item.split("=", 1)
        git(repo, "checkout", "-q", "-b", name, "main")
        shutil.copy(source, os.path.join(repo, "kernels", "gemm.hip"))
        git(repo, "commit", "-q", "-a", "-m", name)
    git(repo, "checkout", "-q", "main")


if __name__ == "__main__":
    main()
