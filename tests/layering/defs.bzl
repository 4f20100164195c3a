"""What tests/layering reads of a package."""

def layering_files(folders = [""]):
    """The sources, README of each folder and the BUILD file of a package.

    Args:
      folders: the package's folders that are units ("" for the package's own).
    """
    native.filegroup(
        name = "layering_files",
        srcs = native.glob([
            (f + "/" if f else "") + pattern
            for f in folders
            for pattern in ["*.cc", "*.h", "*.inc", "*.S", "README.md"]
        ]) + ["BUILD.bazel"],
        visibility = ["//tests/layering:__pkg__"],
    )
