// Host twins: softhsa cannot run GPU code, so a kernel loaded from an
// AMDGPU code object runs the host function registered under its name, with
// the code object format's kernel signature (loader.h's KernelFn), called
// once per workgroup; its arguments are read from the kernarg segment as the
// GPU code would read them. A kernel without a twin completes as a no-op.
#ifndef SOFTHSA_TWINS_H_
#define SOFTHSA_TWINS_H_

#include <cstdint>
#include <string>

#include "softhsa/amdgpu_metadata.h"
#include "softhsa/loader.h"

namespace softhsa {

// Prefix of a twin's exported name: kernel "_Z6kernelPf" (the name without
// code object v3's ".kd") has the twin "softhsa_twin__Z6kernelPf".
constexpr char kTwinPrefix[] = "softhsa_twin_";

// The twin of `kernel`: looked up in the libraries SOFTHSA_TWINS names
// (separated by spaces or colons, loaded on first use), then among the
// process's global symbols (a program linked with -rdynamic), then among
// softhsa's own twins of HIP's blit kernels (`args`: the kernel's arguments
// from its code object's metadata). nullptr when there is none.
KernelFn FindTwin(const std::string& kernel,
                  const std::vector<KernelArg>& args);

// A kernel name that lives as long as the process (for Kernel::name).
const char* InternName(const std::string& name);

// A dispatch of `kernel` that has no twin ran as a no-op: counted, and the
// first one of each name reported on stderr.
void NoteNoTwin(const char* kernel);
// At the last hsa_shut_down: one line on stderr per kernel that ran as a
// no-op, with its count; the counts start again from 0.
void ReportNoTwins();

// softhsa's twins of the blit kernels HIP's runtime builds for its copies
// and fills (blit_twins.cc), for the argument layout the kernel's metadata
// gives (HIP releases differ); nullptr for any other name or layout.
KernelFn BuiltinTwin(const std::string& kernel,
                     const std::vector<KernelArg>& args);

}  // namespace softhsa

#endif  // SOFTHSA_TWINS_H_
