#include "files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

#include "npy_header.h"

namespace oa::tool {
namespace {

// Both formats store little-endian elements, which are copied to and from memory as they are.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the file formats assume a little-endian host");

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
// numpy pads the header so that the data starts on a multiple of this.
constexpr size_t kAlign = 64;
// numpy leaves room after the header dict for the first dim to grow to this many digits, so that
// appending tools can rewrite the header in place; writing the same makes our files identical.
constexpr size_t kGrowthDigits = 21;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw UsageError(path + ": " + what);
}

std::string bytes_text(uint64_t count) {
  return std::to_string(count) + (count == 1 ? " byte" : " bytes");
}

// A file opened for reading, closed when the object goes.
class InputFile {
 public:
  explicit InputFile(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      const int error = errno;
      fail(path, error == ENOENT ? "no such file" : "cannot open: " + std::string(strerror(error)));
    }
    struct stat info;
    if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
      ::close(fd_);
      fail(path, "not a regular file");
    }
    size_ = static_cast<uint64_t>(info.st_size);
  }
  ~InputFile() { ::close(fd_); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  uint64_t size() const { return size_; }

  // Reads up to count bytes; fewer only at the end of the file.
  size_t read(void* data, size_t count) {
    size_t done = 0;
    while (done < count) {
      const ssize_t n = ::read(fd_, static_cast<char*>(data) + done, count - done);
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n < 0) {
        fail(path_, "cannot read: " + std::string(strerror(errno)));
      }
      if (n == 0) {
        break;
      }
      done += static_cast<size_t>(n);
    }
    return done;
  }

  // The next count bytes, which the file's size says are there.
  std::vector<uint8_t> read_data(size_t count) {
    std::vector<uint8_t> data(count);
    if (read(data.data(), count) != count) {
      fail(path_, "the file shrank while it was being read");
    }
    return data;
  }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// The number of data bytes of shape and dtype; UsageError for a negative dim or an overflow.
uint64_t data_size(const std::string& path, const std::vector<int64_t>& shape, aclDataType dtype) {
  for (int64_t dim : shape) {
    if (dim < 0) {
      fail(path, "negative dimension in shape " + shape_label(shape));
    }
  }
  if (std::count(shape.begin(), shape.end(), 0) > 0) {
    return 0;
  }
  const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  uint64_t size = element_size(dtype);
  for (int64_t dim : shape) {
    if (size > limit / static_cast<uint64_t>(dim)) {
      fail(path, "shape " + shape_label(shape) + " is too large");
    }
    size *= static_cast<uint64_t>(dim);
  }
  return size;
}

struct NpyDescr {
  const char* descr;
  aclDataType dtype;
};

constexpr NpyDescr kDescrs[] = {
    {"<f4", ACL_FLOAT}, {"<f2", ACL_FLOAT16},  {"<f8", ACL_DOUBLE},        {"<i4", ACL_INT32},
    {"<i8", ACL_INT64}, {"|i1", ACL_INT8},     {"|b1", ACL_BOOL},          {"<u2", ACL_BF16},
    {"|u1", ACL_UINT8}, {"|u1", ACL_HIFLOAT8}, {"|u1", ACL_FLOAT8_E4M3FN},
};

const char* descr_of(aclDataType dtype) {
  for (const NpyDescr& entry : kDescrs) {
    if (entry.dtype == dtype) {
      return entry.descr;
    }
  }
  throw UsageError("cannot store dtype " + dtype_label(dtype) + " in a .npy file");
}

// The dtype of a file whose header says descr; `as` names what its uint16/uint8 bits hold.
aclDataType dtype_of(const std::string& path, const std::string& descr,
                     std::optional<aclDataType> as) {
  const std::string quoted = "'" + descr + "'";
  if (descr.size() > 1 && descr[0] == '>') {
    fail(path, "holds big-endian data (" + quoted +
                   "); only little-endian .npy files are supported (in numpy: "
                   "a.astype(a.dtype.newbyteorder('<')))");
  }
  if (descr == "<u2" && !as) {
    fail(path, "holds uint16 (" + quoted +
                   "); if these are bfloat16 bit patterns, pass --dtype NAME=bf16");
  }
  if (descr == "|u1" && !as) {
    fail(path, "holds uint8 (" + quoted +
                   "); pass --dtype NAME=uint8, or, if these are 8-bit float bit patterns, "
                   "--dtype NAME=hif8 or --dtype NAME=e4m3fn");
  }
  bool known = false;
  for (const NpyDescr& entry : kDescrs) {
    if (descr != entry.descr) {
      continue;
    }
    known = true;
    if (!as || *as == entry.dtype) {
      return entry.dtype;
    }
  }
  if (known) {
    fail(path, "holds " + quoted + ", which cannot be read as " + dtype_label(*as));
  }
  fail(path, "unsupported dtype " + quoted +
                 " (supported: '<f4' float32, '<f2' float16, '<f8' float64, '<i4' int32, "
                 "'<i8' int64, '|i1' int8, '|b1' bool, '<u2' as bf16, '|u1' as uint8, hif8 or "
                 "e4m3fn)");
}

std::string shape_tuple(const std::vector<int64_t>& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

// The magic string, version, header length and padded header dict, as numpy writes them: version
// 1.0 unless the header is too long for its 16-bit length field.
std::string npy_prefix(const Array& array) {
  std::string dict = "{'descr': '" + std::string(descr_of(array.dtype)) +
                     "', 'fortran_order': False, 'shape': " + shape_tuple(array.shape) + ", }";
  if (!array.shape.empty()) {
    const size_t digits = std::to_string(array.shape[0]).size();
    dict.append(kGrowthDigits > digits ? kGrowthDigits - digits : 0, ' ');
  }
  // The header length counts the dict, its padding and the final newline.
  const auto padded_length = [&](size_t length_size) {
    const size_t unpadded = kMagicSize + 2 + length_size + dict.size() + 1;
    return dict.size() + 1 + kAlign - unpadded % kAlign;
  };
  const bool v1 = padded_length(2) <= 0xFFFF;
  const size_t length_size = v1 ? 2 : 4;
  const size_t length = padded_length(length_size);
  dict.append(length - dict.size() - 1, ' ');
  dict += '\n';
  std::string prefix(kMagic, kMagicSize);
  prefix += static_cast<char>(v1 ? 1 : 2);
  prefix += '\0';
  for (size_t i = 0; i < length_size; ++i) {
    prefix += static_cast<char>((length >> (8 * i)) & 0xFF);
  }
  return prefix + dict;
}

void check_array(const std::string& path, const Array& array) {
  const uint64_t expected = data_size(path, array.shape, array.dtype);
  if (array.bytes.size() != expected) {
    fail(path, "array of shape " + shape_label(array.shape) + " and dtype " +
                   dtype_label(array.dtype) + " has " + bytes_text(array.bytes.size()) +
                   ", expected " + bytes_text(expected));
  }
}

bool write_all(int fd, const void* data, size_t count) {
  size_t done = 0;
  while (done < count) {
    const ssize_t n = ::write(fd, static_cast<const char*>(data) + done, count - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

// Writes head then data to a new file beside path and renames it to path, so that path is either
// untouched or complete; the temporary file is removed on any failure.
void write_file(const std::string& path, const std::string& head,
                const std::vector<uint8_t>& data) {
  static std::atomic<unsigned> counter{0};
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    // 0666 lets the umask decide the permissions, as for any new file.
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) {
      break;
    }
  }
  if (fd < 0) {
    fail(path, "cannot create a file beside it: " + std::string(strerror(errno)));
  }
  int error = 0;
  if (!write_all(fd, head.data(), head.size()) || !write_all(fd, data.data(), data.size())) {
    error = errno;
  }
  if (::close(fd) != 0 && error == 0) {
    error = errno;
  }
  if (error == 0 && ::rename(temp.c_str(), path.c_str()) != 0) {
    error = errno;
  }
  if (error != 0) {
    ::unlink(temp.c_str());
    fail(path, "cannot write: " + std::string(strerror(error)));
  }
}

}  // namespace

bool is_bin_path(const std::string& path) {
  return std::filesystem::path(path).extension() == ".bin";
}

Array read_npy(const std::string& path, std::optional<aclDataType> as) {
  InputFile file(path);
  unsigned char fixed[kMagicSize + 2];
  const size_t got = file.read(fixed, sizeof fixed);
  if (got == 0 || std::memcmp(fixed, kMagic, std::min(got, kMagicSize)) != 0) {
    fail(path, "not a .npy file (it does not start with \\x93NUMPY)");
  }
  if (got < sizeof fixed) {
    fail(path, "truncated .npy header: the file has only " + bytes_text(file.size()));
  }
  const unsigned major = fixed[kMagicSize];
  const unsigned minor = fixed[kMagicSize + 1];
  if (major < 1 || major > 3 || minor != 0) {
    fail(path, "unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
  }
  const size_t length_size = major == 1 ? 2 : 4;
  unsigned char length_bytes[4];
  if (file.read(length_bytes, length_size) < length_size) {
    fail(path, "truncated .npy header: the file has only " + bytes_text(file.size()));
  }
  uint64_t length = 0;
  for (size_t i = 0; i < length_size; ++i) {
    length |= static_cast<uint64_t>(length_bytes[i]) << (8 * i);
  }
  const uint64_t data_offset = sizeof fixed + length_size + length;
  if (file.size() < data_offset) {
    fail(path, "truncated .npy header: expected " + bytes_text(data_offset) +
                   " of header, the file has " + bytes_text(file.size()));
  }
  std::string text(length, '\0');
  file.read(text.data(), length);
  const NpyHeader header = parse_npy_header(path, text);
  // With at most one dim above 1, Fortran order and C order are the same layout.
  const auto long_dims =
      std::count_if(header.shape.begin(), header.shape.end(), [](int64_t dim) { return dim > 1; });
  if (header.fortran_order && long_dims > 1) {
    fail(path,
         "is stored in Fortran order; only C order is supported (in numpy: "
         "np.save(path, np.ascontiguousarray(a)))");
  }
  Array array;
  array.dtype = dtype_of(path, header.descr, as);
  array.shape = header.shape;
  const uint64_t expected = data_size(path, array.shape, array.dtype);
  const uint64_t actual = file.size() - data_offset;
  if (actual != expected) {
    fail(path,
         std::string(actual < expected ? "truncated data" : "unexpected bytes after the data") +
             ": shape " + shape_label(array.shape) + " of " + dtype_label(array.dtype) + " needs " +
             bytes_text(expected) + " after the header, the file has " + bytes_text(actual));
  }
  array.bytes = file.read_data(expected);
  return array;
}

void write_npy(const std::string& path, const Array& array) {
  check_array(path, array);
  write_file(path, npy_prefix(array), array.bytes);
}

Array read_bin(const std::string& path, aclDataType dtype, const std::vector<int64_t>& shape) {
  InputFile file(path);
  Array array;
  array.dtype = dtype;
  array.shape = shape;
  const uint64_t expected = data_size(path, shape, dtype);
  if (file.size() != expected) {
    fail(path, "has " + bytes_text(file.size()) + ", but shape " + shape_label(shape) + " of " +
                   dtype_label(dtype) + " needs exactly " + bytes_text(expected));
  }
  array.bytes = file.read_data(expected);
  return array;
}

void write_bin(const std::string& path, const Array& array) {
  check_array(path, array);
  write_file(path, std::string(), array.bytes);
}

Array read_array(const std::string& path, std::optional<aclDataType> dtype,
                 const std::optional<std::vector<int64_t>>& shape) {
  if (!is_bin_path(path)) {
    if (shape) {
      fail(path, "a .npy file carries its own shape; a shape applies to .bin files only");
    }
    return read_npy(path, dtype);
  }
  if (!dtype || !shape) {
    fail(path, "a .bin file has no header: give its shape and dtype");
  }
  return read_bin(path, *dtype, *shape);
}

void write_array(const std::string& path, const Array& array) {
  if (is_bin_path(path)) {
    write_bin(path, array);
  } else {
    write_npy(path, array);
  }
}

}  // namespace oa::tool
