// main() for the fuzz targets where libFuzzer is not linked (the gcc sanitizer build, which CI
// runs): runs the target on every file of the corpus folders (or files) given, then, with
// -seconds=N, for N seconds on random changes of them — byte flips, overwrites, insertions,
// deletions and splices, from a fixed seed, with no coverage guidance. An input that trips a
// sanitizer is written to <-artifact_prefix=>crash before the process dies, for replaying.
//   openaclnn_<target> [-seconds=N] [-artifact_prefix=PATH] CORPUS...
#include <sanitizer/common_interface_defs.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::vector<uint8_t>;

constexpr size_t kMaxLength = 4096;  // as the libFuzzer runs' -max_len

Bytes g_current;
std::string g_artifact;

void save_current() {
  const std::string path = g_artifact + "crash";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(g_current.data()),
             static_cast<std::streamsize>(g_current.size()));
  std::fprintf(stderr, "replay: the failing input is in %s\n", path.c_str());
}

void run(const Bytes& input) {
  g_current = input;
  LLVMFuzzerTestOneInput(g_current.data(), g_current.size());
}

Bytes read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// One to four random edits of base, or of another corpus input spliced onto it.
Bytes mutate(const std::vector<Bytes>& corpus, std::mt19937_64& rng) {
  const auto pick = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
  Bytes input = corpus.empty() ? Bytes() : corpus[pick(corpus.size())];
  for (size_t edits = 1 + pick(4); edits > 0; --edits) {
    const size_t at = input.empty() ? 0 : pick(input.size());
    switch (pick(5)) {
      case 0:
        if (!input.empty()) {
          input[at] ^= static_cast<uint8_t>(1u << pick(8));
        }
        break;
      case 1:
        if (!input.empty()) {
          input[at] = static_cast<uint8_t>(rng());
        }
        break;
      case 2:
        input.insert(input.begin() + static_cast<std::ptrdiff_t>(at), 1 + pick(8),
                     static_cast<uint8_t>(rng()));
        break;
      case 3:
        if (!input.empty()) {
          input.erase(input.begin() + static_cast<std::ptrdiff_t>(at),
                      input.begin() +
                          static_cast<std::ptrdiff_t>(std::min(input.size(), at + 1 + pick(8))));
        }
        break;
      default:
        if (!corpus.empty()) {
          const Bytes& other = corpus[pick(corpus.size())];
          input.resize(at);
          input.insert(
              input.end(),
              other.begin() + static_cast<std::ptrdiff_t>(other.empty() ? 0 : pick(other.size())),
              other.end());
        }
        break;
    }
  }
  input.resize(std::min(input.size(), kMaxLength));
  return input;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 0;
  std::vector<Bytes> corpus;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("-seconds=", 0) == 0) {
      seconds = std::atof(arg.c_str() + 9);
    } else if (arg.rfind("-artifact_prefix=", 0) == 0) {
      g_artifact = arg.substr(17);
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(arg)) {
        files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& file : files) {
        corpus.push_back(read_file(file));
      }
    } else {
      corpus.push_back(read_file(arg));
    }
  }
  __sanitizer_set_death_callback(save_current);
  for (const Bytes& input : corpus) {
    run(input);
  }
  std::mt19937_64 rng(29);
  uint64_t executions = corpus.size();
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (elapsed() < seconds) {
    run(mutate(corpus, rng));
    ++executions;
  }
  std::printf("replay: %zu corpus inputs, %llu executions in %.0f s\n", corpus.size(),
              static_cast<unsigned long long>(executions), elapsed());
  return 0;
}
