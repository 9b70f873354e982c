// The .npy and .bin readers and writers: round trips, files as numpy writes them, and every kind of
// bad input, each with a message naming the file and the problem.
#include "openaclnn/files.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tool_process.h"

namespace oa::tool {
namespace {

using oa::test::read_file_bytes;
using oa::test::ScratchDir;
using oa::test::write_file_bytes;

Array make_array(aclDataType dtype, std::vector<int64_t> shape) {
  Array array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  array.bytes.resize(static_cast<size_t>(array.numel()) * element_size(dtype));
  for (size_t i = 0; i < array.bytes.size(); ++i) {
    array.bytes[i] = static_cast<uint8_t>(i * 37 + 11);
  }
  return array;
}

// The message of the UsageError that f throws; "(no error)" when it throws none.
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

// A .npy file: magic, version major.0, the header length field, header, data.
std::string npy_bytes(int major, const std::string& header, const std::string& data = "") {
  std::string bytes = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  const size_t length_size = major == 1 ? 2 : 4;
  for (size_t i = 0; i < length_size; ++i) {
    bytes += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  }
  return bytes + header + data;
}

std::string le_floats(const std::vector<float>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

std::vector<float> floats_of(const Array& array) {
  std::vector<float> values(array.bytes.size() / sizeof(float));
  std::memcpy(values.data(), array.bytes.data(), array.bytes.size());
  return values;
}

const aclDataType kDtypes[] = {ACL_FLOAT, ACL_FLOAT16,  ACL_BF16,         ACL_INT32,
                               ACL_INT64, ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN};
const std::vector<std::vector<int64_t>> kShapes = {{2, 3}, {5}, {}, {0}, {3, 0, 2}, {2, 1, 3, 1}};

TEST(FilesTest, NpyRoundTripsEveryDtypeAndShape) {
  ScratchDir dir;
  for (aclDataType dtype : kDtypes) {
    for (const auto& shape : kShapes) {
      SCOPED_TRACE(dtype_label(dtype) + " " + shape_label(shape));
      const Array array = make_array(dtype, shape);
      const std::string path = dir.file("a.npy");
      write_npy(path, array);
      const Array back = read_npy(path, dtype);
      EXPECT_EQ(back.dtype, dtype);
      EXPECT_EQ(back.shape, shape);
      EXPECT_EQ(back.bytes, array.bytes);
      const std::string bytes = read_file_bytes(path);
      EXPECT_EQ((bytes.size() - array.bytes.size()) % 64, 0u);
      EXPECT_EQ(bytes[bytes.size() - array.bytes.size() - 1], '\n');
      EXPECT_EQ(bytes.substr(6, 2), std::string("\x01\x00", 2));
    }
  }
  EXPECT_EQ(dir.names(), std::vector<std::string>{"a.npy"});
}

TEST(FilesTest, BinRoundTripsEveryDtypeAndShape) {
  ScratchDir dir;
  for (aclDataType dtype : kDtypes) {
    for (const auto& shape : kShapes) {
      SCOPED_TRACE(dtype_label(dtype) + " " + shape_label(shape));
      const Array array = make_array(dtype, shape);
      const std::string path = dir.file("a.bin");
      write_bin(path, array);
      EXPECT_EQ(read_file_bytes(path).size(), array.bytes.size());
      const Array back = read_bin(path, dtype, shape);
      EXPECT_EQ(back.dtype, dtype);
      EXPECT_EQ(back.shape, shape);
      EXPECT_EQ(back.bytes, array.bytes);
    }
  }
}

TEST(FilesTest, ReadAndWriteArrayChooseTheFormatByExtension) {
  ScratchDir dir;
  const Array array = make_array(ACL_FLOAT16, {2, 2});
  write_array(dir.file("x.bin"), array);
  write_array(dir.file("x.npy"), array);
  EXPECT_EQ(read_file_bytes(dir.file("x.bin")).size(), 8u);
  EXPECT_EQ(read_array(dir.file("x.bin"), ACL_FLOAT16, std::vector<int64_t>{2, 2}).bytes,
            array.bytes);
  EXPECT_EQ(read_array(dir.file("x.npy"), std::nullopt, std::nullopt).bytes, array.bytes);
  EXPECT_TRUE(contains(error_of([&] { read_array(dir.file("x.bin"), ACL_FLOAT16, std::nullopt); }),
                       "give its shape and dtype"));
  EXPECT_TRUE(contains(
      error_of([&] { read_array(dir.file("x.npy"), std::nullopt, std::vector<int64_t>{4}); }),
      "applies to .bin files only"));
}

TEST(FilesTest, WritesTheHeaderNumpyWrites) {
  ScratchDir dir;
  Array array = make_array(ACL_FLOAT, {3});
  write_npy(dir.file("a.npy"), array);
  // numpy 1.23+: the dict, room for the first dim to grow to 21 digits, padding to 64 bytes.
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  const std::string header = dict + std::string(118 - dict.size() - 1, ' ') + "\n";
  const std::string data(array.bytes.begin(), array.bytes.end());
  EXPECT_EQ(read_file_bytes(dir.file("a.npy")), npy_bytes(1, header, data));

  write_npy(dir.file("b.npy"), make_array(ACL_BF16, {2, 3}));
  EXPECT_TRUE(contains(read_file_bytes(dir.file("b.npy")),
                       "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }"));
  write_npy(dir.file("c.npy"), make_array(ACL_HIFLOAT8, {}));
  EXPECT_TRUE(contains(read_file_bytes(dir.file("c.npy")),
                       "{'descr': '|u1', 'fortran_order': False, 'shape': (), }  "));
  write_npy(dir.file("d.npy"), make_array(ACL_FLOAT8_E4M3FN, {1}));
  EXPECT_TRUE(contains(read_file_bytes(dir.file("d.npy")), "'descr': '|u1'"));
}

TEST(FilesTest, HeadersTooLongForVersion1UseVersion2) {
  ScratchDir dir;
  const Array array = make_array(ACL_INT32, std::vector<int64_t>(30000, 1));
  write_npy(dir.file("a.npy"), array);
  const std::string bytes = read_file_bytes(dir.file("a.npy"));
  EXPECT_EQ(bytes[6], '\x02');
  EXPECT_EQ((bytes.size() - 4) % 64, 0u);
  EXPECT_EQ(read_npy(dir.file("a.npy")).shape, array.shape);
}

TEST(FilesTest, ReadsFilesAsNumpyWritesThem) {
  ScratchDir dir;
  const std::string data = le_floats({1.5f, -2.0f, 3.25f, 0.0f, 7.0f, 8.0f});
  // Older numpy: 16-byte alignment and no growth room.
  const std::string old_header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }          \n";
  write_file_bytes(dir.file("v1.npy"), npy_bytes(1, old_header, data));
  const Array v1 = read_npy(dir.file("v1.npy"));
  EXPECT_EQ(v1.dtype, ACL_FLOAT);
  EXPECT_EQ(v1.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(floats_of(v1), (std::vector<float>{1.5f, -2.0f, 3.25f, 0.0f, 7.0f, 8.0f}));

  const std::string v2_header =
      "{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }" + std::string(49, ' ') + "\n";
  const int64_t value = -1234567890123;
  write_file_bytes(dir.file("v2.npy"),
                   npy_bytes(2, v2_header, std::string(reinterpret_cast<const char*>(&value), 8)));
  const Array v2 = read_npy(dir.file("v2.npy"));
  EXPECT_EQ(v2.dtype, ACL_INT64);
  EXPECT_EQ(v2.shape, std::vector<int64_t>{1});
  EXPECT_EQ(v2.bytes, std::vector<uint8_t>(reinterpret_cast<const uint8_t*>(&value),
                                           reinterpret_cast<const uint8_t*>(&value) + 8));

  write_file_bytes(dir.file("v3.npy"),
                   npy_bytes(3, "{'descr': '<f2', 'fortran_order': False, 'shape': (), }\n", "ab"));
  EXPECT_EQ(read_npy(dir.file("v3.npy")).dtype, ACL_FLOAT16);
  EXPECT_TRUE(read_npy(dir.file("v3.npy")).shape.empty());
}

TEST(FilesTest, ParsesAnyValidPythonDictLiteral) {
  ScratchDir dir;
  const std::string data = le_floats({1, 2, 3, 4, 5, 6});
  const std::string headers[] = {
      "{'shape': (2, 3), 'descr': '<f4', 'fortran_order': False}",
      "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2,3,),}",
      "{ 'fortran_order' : False ,\n 'shape' : ( 2 , 3 ) , 'descr' : '<f4' , }\n",
      "{'descr':'<f4','fortran_order':False,'shape':(2,3)}\t\r\n",
  };
  for (const std::string& header : headers) {
    SCOPED_TRACE(header);
    write_file_bytes(dir.file("a.npy"), npy_bytes(1, header, data));
    const Array array = read_npy(dir.file("a.npy"));
    EXPECT_EQ(array.shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(array.dtype, ACL_FLOAT);
  }
}

TEST(FilesTest, RefusesMalformedHeaders) {
  ScratchDir dir;
  const std::string headers[] = {
      "{'descr': '<f4', 'fortran_order': False, 'shape': (6)}",
      "{'descr': '<f4', 'fortran_order': False}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'extra': 1}",
      "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (6,)} x",
      "{'descr': '<f4, 'fortran_order': False, 'shape': (6,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (-6,)}",
      "{'descr': '<f4', 'fortran_order': Tru, 'shape': (6,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (6,,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (6,) ,, }",
      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
      "descr: <f4",
      "",
  };
  for (const std::string& header : headers) {
    SCOPED_TRACE(header);
    write_file_bytes(dir.file("bad.npy"), npy_bytes(1, header, std::string(24, '\0')));
    const std::string message = error_of([&] { read_npy(dir.file("bad.npy")); });
    EXPECT_TRUE(contains(message, dir.file("bad.npy") + ": malformed .npy header"));
  }
}

TEST(FilesTest, ReportsEveryBadFile) {
  ScratchDir dir;
  const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n";
  const auto message_for = [&](const std::string& bytes,
                               std::optional<aclDataType> as = std::nullopt) {
    write_file_bytes(dir.file("f.npy"), bytes);
    return error_of([&] { read_npy(dir.file("f.npy"), as); });
  };
  const std::string path = dir.file("f.npy");

  EXPECT_EQ(error_of([&] { read_npy(dir.file("missing.npy")); }),
            dir.file("missing.npy") + ": no such file");
  EXPECT_TRUE(contains(error_of([&] { read_npy(dir.path()); }), "not a regular file"));
  EXPECT_TRUE(contains(message_for(""), path + ": not a .npy file"));
  EXPECT_TRUE(contains(message_for("PK\x03\x04 not numpy"), path + ": not a .npy file"));
  EXPECT_TRUE(contains(message_for("\x93NUM"), path + ": truncated .npy header"));
  EXPECT_TRUE(contains(message_for(npy_bytes(1, good).substr(0, 9)), "truncated .npy header"));
  EXPECT_TRUE(contains(message_for(npy_bytes(1, good).substr(0, 40)),
                       "truncated .npy header: expected 70 bytes of header, the file has 40"));
  EXPECT_TRUE(contains(message_for(npy_bytes(4, good)), "unsupported .npy format version 4.0"));
  EXPECT_TRUE(contains(message_for(npy_bytes(1, good, std::string(20, '\0'))),
                       path + ": truncated data: shape [2, 3] of float32 needs 24 bytes after "
                              "the header, the file has 20 bytes"));
  EXPECT_TRUE(contains(message_for(npy_bytes(1, good, std::string(25, '\0'))),
                       "unexpected bytes after the data"));

  const auto header_with = [](const std::string& descr, const std::string& order) {
    return "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': (2, 3), }\n";
  };
  EXPECT_TRUE(contains(message_for(npy_bytes(1, header_with("<f4", "True"), std::string(24, 0))),
                       path + ": is stored in Fortran order"));
  const std::string fortran_vector = "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 6), }\n";
  EXPECT_EQ(message_for(npy_bytes(1, fortran_vector, std::string(24, 0))), "(no error)");
  EXPECT_TRUE(contains(message_for(npy_bytes(1, header_with(">f4", "False"), std::string(24, 0))),
                       path + ": holds big-endian data ('>f4')"));
  EXPECT_TRUE(contains(message_for(npy_bytes(1, header_with("<c8", "False"), std::string(48, 0))),
                       path + ": unsupported dtype '<c8'"));
  EXPECT_TRUE(contains(message_for(npy_bytes(1, header_with("<i2", "False"), std::string(12, 0))),
                       "unsupported dtype '<i2'"));
  EXPECT_EQ(message_for(npy_bytes(1, header_with("<f8", "False"), std::string(48, 0))),
            "(no error)");
  EXPECT_EQ(message_for(npy_bytes(1, header_with("|i1", "False"), std::string(6, 0))),
            "(no error)");
  const std::string u2 = npy_bytes(1, header_with("<u2", "False"), std::string(12, 0));
  EXPECT_TRUE(contains(message_for(u2), path + ": holds uint16 ('<u2')"));
  EXPECT_TRUE(contains(message_for(u2), "pass --dtype NAME=bf16"));
  EXPECT_TRUE(contains(message_for(u2, ACL_FLOAT16), "cannot be read as float16"));
  EXPECT_EQ(message_for(u2, ACL_BF16), "(no error)");
  const std::string u1 = npy_bytes(1, header_with("|u1", "False"), std::string(6, 0));
  EXPECT_TRUE(contains(message_for(u1), "--dtype NAME=hif8 or --dtype NAME=e4m3fn"));
  EXPECT_TRUE(contains(message_for(u1, ACL_BF16), "cannot be read as bf16"));
  EXPECT_EQ(message_for(u1, ACL_HIFLOAT8), "(no error)");
  EXPECT_EQ(message_for(u1, ACL_FLOAT8_E4M3FN), "(no error)");
  const std::string f4 = npy_bytes(1, good, std::string(24, 0));
  EXPECT_TRUE(contains(message_for(f4, ACL_BF16), "holds '<f4', which cannot be read as bf16"));
  EXPECT_EQ(message_for(f4, ACL_FLOAT), "(no error)");
}

TEST(FilesTest, BinSizeMustMatchExactly) {
  ScratchDir dir;
  const std::string path = dir.file("a.bin");
  write_file_bytes(path, std::string(20, '\0'));
  EXPECT_EQ(error_of([&] {
              read_bin(path, ACL_FLOAT, {2, 3});
            }),
            path + ": has 20 bytes, but shape [2, 3] of float32 needs exactly 24 bytes");
  EXPECT_TRUE(contains(error_of([&] { read_bin(path, ACL_INT64, {3}); }), "needs exactly 24"));
  EXPECT_EQ(read_bin(path, ACL_INT32, {5}).bytes.size(), 20u);
  EXPECT_TRUE(contains(error_of([&] { read_bin(path, ACL_FLOAT, {-5}); }), "negative dimension"));
  EXPECT_TRUE(contains(error_of([&] {
                         read_bin(path, ACL_FLOAT, {0, -5});
                       }),
                       "negative dimension"));
  EXPECT_TRUE(contains(error_of([&] {
                         read_bin(path, ACL_INT64, {int64_t{1} << 62, 4});
                       }),
                       "shape [4611686018427387904, 4] is too large"));
  EXPECT_EQ(error_of([&] { read_bin(dir.file("none.bin"), ACL_FLOAT, {1}); }),
            dir.file("none.bin") + ": no such file");
}

TEST(FilesTest, FailedWritesLeaveNothingBehind) {
  ScratchDir dir;
  const Array array = make_array(ACL_FLOAT, {4});
  // A folder in the way: the rename fails after the data was written to the temporary file.
  std::filesystem::create_directory(dir.file("out.npy"));
  std::filesystem::create_directory(dir.file("out.bin"));
  EXPECT_TRUE(contains(error_of([&] { write_npy(dir.file("out.npy"), array); }),
                       dir.file("out.npy") + ": cannot write"));
  EXPECT_TRUE(contains(error_of([&] { write_bin(dir.file("out.bin"), array); }),
                       dir.file("out.bin") + ": cannot write"));
  EXPECT_TRUE(contains(error_of([&] { write_npy(dir.file("no/such/dir.npy"), array); }),
                       "cannot create a file beside it"));
  Array inconsistent = array;
  inconsistent.bytes.pop_back();
  EXPECT_TRUE(contains(error_of([&] { write_npy(dir.file("bad.npy"), inconsistent); }),
                       "has 15 bytes, expected 16 bytes"));
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"out.bin", "out.npy"}));
}

TEST(FilesTest, WritingReplacesAnExistingFile) {
  ScratchDir dir;
  write_file_bytes(dir.file("a.npy"), "old content");
  write_npy(dir.file("a.npy"), make_array(ACL_INT32, {2}));
  EXPECT_EQ(read_npy(dir.file("a.npy")).shape, std::vector<int64_t>{2});
  EXPECT_EQ(dir.names(), std::vector<std::string>{"a.npy"});
}

}  // namespace
}  // namespace oa::tool
