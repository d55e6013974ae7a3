"""Tags the wheel for the platform of the server binary it holds.

python/build.sh puts the binary in src/dynamoemu/bin and names the
platform tag in DYNAMOEMU_WHEEL_PLATFORM (manylinux2014_x86_64, ...): the
wheel is py3-none-PLATFORM, for any Python 3 on that platform.
"""

import os

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PlatformWheel(BuildHookInterface):
    def initialize(self, version, build_data):
        if self.target_name != "wheel":
            return
        plat = os.environ.get("DYNAMOEMU_WHEEL_PLATFORM")
        if not plat:
            raise RuntimeError("dynamoemu: build the wheel with python/build.sh, which puts the server in it")
        build_data["pure_python"] = False
        build_data["tag"] = "py3-none-" + plat
