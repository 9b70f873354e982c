// Events: records in stream order, waits, synchronization, status and measured elapsed time; every
// bad handle and argument is reported with a code and a message.
#include <chrono>
#include <thread>

#include "test_env.h"

namespace {

using oa_test::expect_error;

// An event released with aclrtDestroyEvent when the test ends.
class Event {
 public:
  explicit Event(uint32_t flag = 0) {
    EXPECT_EQ(flag == 0 ? aclrtCreateEvent(&event_) : aclrtCreateEventWithFlag(&event_, flag),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
  }
  ~Event() { EXPECT_EQ(aclrtDestroyEvent(event_), ACL_SUCCESS) << aclGetRecentErrMsg(); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  aclrtEvent get() const { return event_; }

 private:
  aclrtEvent event_ = nullptr;
};

class Stream {
 public:
  Stream() { EXPECT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS) << aclGetRecentErrMsg(); }
  ~Stream() { EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg(); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  aclrtStream get() const { return stream_; }

 private:
  aclrtStream stream_ = nullptr;
};

aclrtEventRecordedStatus status_of(aclrtEvent event) {
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS) << aclGetRecentErrMsg();
  return status;
}

TEST(Event, RecordCompletesAfterTheStreamsEarlierWork) {
  Stream stream;
  Event event;
  EXPECT_EQ(status_of(event.get()), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  // Work on the stream, then the record: the copy has landed when the event completes.
  oa_test::DeviceBuffer buffer(64);
  std::vector<float> values(16, 2.5f);
  ASSERT_EQ(aclrtMemcpyAsync(buffer.get(), 64, values.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE,
                             stream.get()),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event.get(), stream.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(status_of(event.get()), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(aclrtSynchronizeEvent(event.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(buffer.read<float>(), values);
}

TEST(Event, AnotherStreamWaitsOnTheEvent) {
  Stream producer;
  Stream consumer;
  Event ready;
  oa_test::DeviceBuffer a(16);
  oa_test::DeviceBuffer b(16);
  std::vector<int32_t> values = {1, 2, 3, 4};
  ASSERT_EQ(
      aclrtMemcpyAsync(a.get(), 16, values.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, producer.get()),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ready.get(), producer.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(consumer.get(), ready.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemcpyAsync(b.get(), 16, a.get(), 16, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer.get()),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(consumer.get()), ACL_SUCCESS);
  EXPECT_EQ(b.read<int32_t>(), values);
}

TEST(Event, DefaultStreamAndUnrecordedEventsAreFine) {
  Event event;
  // Waiting for, or synchronizing with, an event never recorded returns at once.
  EXPECT_EQ(aclrtStreamWaitEvent(nullptr, event.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtSynchronizeEvent(event.get()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event.get(), 10), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event.get(), -1), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(event.get(), nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(status_of(event.get()), ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST(Event, ResetReturnsToNotRecorded) {
  Event event;
  ASSERT_EQ(aclrtRecordEvent(event.get(), nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetEvent(event.get(), nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(status_of(event.get()), ACL_EVENT_RECORDED_STATUS_NOT_READY);
}

TEST(Event, ElapsedTimeIsMeasured) {
  Stream stream;
  Event start;
  Event end(ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC);
  ASSERT_EQ(aclrtRecordEvent(start.get(), stream.get()), ACL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(aclrtRecordEvent(end.get(), stream.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream.get()), ACL_SUCCESS);
  float ms = -1;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, start.get(), end.get()), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_GE(ms, 19.5f);
  EXPECT_LT(ms, 5000.0f);
  // An event with itself: no time.
  ASSERT_EQ(aclrtEventElapsedTime(&ms, start.get(), start.get()), ACL_SUCCESS);
  EXPECT_EQ(ms, 0.0f);
}

TEST(Event, ElapsedTimeNeedsTwoRecordsInOrder) {
  Event start;
  Event end;
  float ms = 0;
  expect_error(aclrtEventElapsedTime(&ms, start.get(), end.get()),
               ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
               {"aclrtEventElapsedTime", "startEvent", "has not been recorded"});
  ASSERT_EQ(aclrtRecordEvent(start.get(), nullptr), ACL_SUCCESS);
  expect_error(aclrtEventElapsedTime(&ms, start.get(), end.get()),
               ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
               {"aclrtEventElapsedTime", "endEvent", "has not been recorded"});
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(aclrtRecordEvent(end.get(), nullptr), ACL_SUCCESS);
  expect_error(aclrtEventElapsedTime(&ms, end.get(), start.get()),
               ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
               {"aclrtEventElapsedTime", "recorded before startEvent"});
  expect_error(aclrtEventElapsedTime(nullptr, start.get(), end.get()), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtEventElapsedTime", "ms is null"});
  expect_error(aclrtEventElapsedTime(&ms, nullptr, end.get()), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtEventElapsedTime", "startEvent is null"});
  expect_error(aclrtEventElapsedTime(&ms, start.get(), nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtEventElapsedTime", "endEvent is null"});
}

TEST(Event, CreateRejectsNullAndUnknownFlags) {
  expect_error(aclrtCreateEvent(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtCreateEvent", "event is null"});
  expect_error(aclrtCreateEventWithFlag(nullptr, 0), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtCreateEventWithFlag", "event is null"});
  aclrtEvent event = nullptr;
  expect_error(aclrtCreateEventWithFlag(&event, 0x4), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtCreateEventWithFlag", "0x4", "no ACL_EVENT_* flag"});
  EXPECT_EQ(event, nullptr);
}

TEST(Event, DestroyedAndForeignHandlesAreReported) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  aclrtEventRecordedStatus status;
  float ms = 0;
  for (aclrtEvent bad : {event, static_cast<aclrtEvent>(&status)}) {
    expect_error(aclrtDestroyEvent(bad), ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtDestroyEvent", "not a live event"});
    expect_error(aclrtRecordEvent(bad, nullptr), ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtRecordEvent", "not a live event"});
    expect_error(aclrtResetEvent(bad, nullptr), ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtResetEvent", "not a live event"});
    expect_error(aclrtStreamWaitEvent(nullptr, bad), ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtStreamWaitEvent", "not a live event"});
    expect_error(aclrtSynchronizeEvent(bad), ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtSynchronizeEvent", "not a live event"});
    expect_error(aclrtSynchronizeEventWithTimeout(bad, 1), ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtSynchronizeEventWithTimeout", "not a live event"});
    expect_error(aclrtQueryEventStatus(bad, &status), ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtQueryEventStatus", "not a live event"});
    expect_error(aclrtEventElapsedTime(&ms, bad, bad), ACL_ERROR_RT_PARAM_INVALID,
                 {"aclrtEventElapsedTime", "startEvent", "not a live event"});
  }
  expect_error(aclrtDestroyEvent(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyEvent", "event is null"});
  expect_error(aclrtSynchronizeEvent(nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSynchronizeEvent", "event is null"});
}

TEST(Event, AStreamIsNotAnEventNorTheReverse) {
  Stream stream;
  Event event;
  expect_error(aclrtRecordEvent(stream.get(), nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtRecordEvent", "not a live event", "it is a stream"});
  expect_error(aclrtRecordEvent(event.get(), event.get()), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtRecordEvent", "stream", "not a live stream", "it is an event"});
  expect_error(aclrtStreamWaitEvent(event.get(), event.get()), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtStreamWaitEvent", "not a live stream", "it is an event"});
  expect_error(aclrtDestroyStream(event.get()), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyStream", "not a live stream", "it is an event"});
  aclrtEventRecordedStatus status;
  expect_error(aclrtQueryEventStatus(event.get(), nullptr), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtQueryEventStatus", "status is null"});
  EXPECT_EQ(aclrtQueryEventStatus(event.get(), &status), ACL_SUCCESS);
}

TEST(Event, BadTimeoutIsRejected) {
  Event event;
  expect_error(aclrtSynchronizeEventWithTimeout(event.get(), -2), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtSynchronizeEventWithTimeout", "timeout", "-2"});
}

TEST(Event, CreateNeedsADeviceAndResetReleasesEvents) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);  // the environment's reference: now zero
  aclrtEvent another = nullptr;
  expect_error(aclrtCreateEvent(&another), ACL_ERROR_RT_CONTEXT_NULL,
               {"aclrtCreateEvent", "no device is set"});
  oa_test::ensure_live_device();
  expect_error(aclrtDestroyEvent(event), ACL_ERROR_RT_PARAM_INVALID,
               {"aclrtDestroyEvent", "not a live event"});
}

}  // namespace
