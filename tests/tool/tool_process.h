// Helpers for the command-line tool's tests: run the built `openaclnn` as a process, and a scratch
// folder for its files.
#pragma once

#include <string>
#include <vector>

namespace oa::test {

struct ToolRun {
  int status = -1;  // the exit status; -1 when the process did not exit normally
  std::string out;  // what it wrote to stdout
  std::string err;  // what it wrote to stderr
};

// Runs `openaclnn args...` (no shell: arguments are passed as they are) and waits for it.
ToolRun run_tool(const std::vector<std::string>& args);

// A fresh, empty folder, removed with everything in it when the object goes.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // path() + "/" + name.
  std::string file(const std::string& name) const;
  const std::string& path() const { return path_; }
  // The names of the files in the folder, sorted.
  std::vector<std::string> names() const;

 private:
  std::string path_;
};

// The whole content of a file as bytes; empty when it cannot be read.
std::string read_file_bytes(const std::string& path);
void write_file_bytes(const std::string& path, const std::string& bytes);

}  // namespace oa::test
