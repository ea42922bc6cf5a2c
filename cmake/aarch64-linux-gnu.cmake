# Cross-compiling for 64-bit Arm Linux with Debian's g++-aarch64-linux-gnu against the
# multiarch :arm64 dev packages (scripts/install-deps.sh arm64 installs both), and running
# what it builds under qemu-user (test.sh's Arm stage):
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   qemu-aarch64-static -cpu max -L /usr/aarch64-linux-gnu build-arm64/bin/kernels_test

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Multiarch: the :arm64 libraries, their CMake packages and .pc files live in
# /usr/lib/aarch64-linux-gnu beside the host's; the headers in /usr/include are shared.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
# Never link the host's libraries by mistake.
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu)

# Programs run at build or test time (CTest; gtest_discover_tests, which lists tests when a
# test runs rather than after each link) go through qemu-user with every Arm extension
# it emulates (dotprod, i8mm, SVE, SVE2).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -cpu max -L /usr/aarch64-linux-gnu)
set(CMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE PRE_TEST)
