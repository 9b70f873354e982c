// Rows of IEEE binary16 to and from float32, with the F16C instructions when the CPU has them
// (chosen at run time) and the core's scalar conversions otherwise. Both give the same bits as
// half_to_float / float_to_half for every input, NaN included.
#pragma once

#include <cstdint>

namespace oa::tbc {

void half_row_to_float(const uint16_t* src, int64_t n, float* dst);
void float_row_to_half(const float* src, int64_t n, uint16_t* dst);
// row[i] = half_to_float(float_to_half(row[i])): the USE_FP16 rounding of an operand.
void round_row_to_half(float* row, int64_t n);

// The scalar versions, always available (the dispatching ones above fall back to them).
void half_row_to_float_portable(const uint16_t* src, int64_t n, float* dst);
void float_row_to_half_portable(const float* src, int64_t n, uint16_t* dst);

// Whether the F16C versions are in use on this CPU.
bool half_rows_use_f16c();

}  // namespace oa::tbc
