//===- Streams.cpp - streams and events -----------------------------------===//
//
// All work is synchronous, so streams and events keep only CUDA's handle
// semantics: flags, priorities, validity, and host timestamps for
// cudaEventElapsedTime. Host functions and callbacks run at once.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include <algorithm>
#include <chrono>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

namespace warpscope::emu::cudart {

bool validStream(cudaStream_t St) {
  if (St == nullptr || St == cudaStreamLegacy || St == cudaStreamPerThread)
    return true;
  return S().Streams.count(St) != 0;
}

} // namespace warpscope::emu::cudart

//===-- streams -----------------------------------------------------------===//

WS_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *PStream,
                                                   unsigned int Flags,
                                                   int Priority) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!PStream || Flags > cudaStreamNonBlocking)
    return setErr(cudaErrorInvalidValue);
  auto R = std::make_unique<StreamRec>();
  R->Flags = Flags;
  R->Priority = std::max(-5, std::min(0, Priority));
  auto *H = reinterpret_cast<cudaStream_t>(R.get());
  St.Streams[H] = std::move(R);
  *PStream = H;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *PStream,
                                                unsigned int Flags) {
  return cudaStreamCreateWithPriority(PStream, Flags, 0);
}

WS_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *PStream) {
  return cudaStreamCreateWithPriority(PStream, cudaStreamDefault, 0);
}

WS_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t Stream) {
  State &St = S();
  Lock L(St.Mu);
  if (!Stream || !St.Streams.count(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  St.Streams.erase(Stream);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  syncPoint();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamQuery(cudaStream_t Stream) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t Stream,
                                          cudaEvent_t Event,
                                          unsigned int Flags) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!validStream(Stream) || !St.Events.count(Event))
    return setErr(cudaErrorInvalidResourceHandle);
  if (Flags > 1)
    return setErr(cudaErrorInvalidValue);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t Stream,
                                         unsigned int *Flags) {
  State &St = S();
  Lock L(St.Mu);
  if (!Flags || !validStream(Stream))
    return setErr(Flags ? cudaErrorInvalidResourceHandle
                        : cudaErrorInvalidValue);
  auto It = St.Streams.find(Stream);
  *Flags = It == St.Streams.end() ? 0 : It->second->Flags;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t Stream,
                                            int *Priority) {
  State &St = S();
  Lock L(St.Mu);
  if (!Priority || !validStream(Stream))
    return setErr(Priority ? cudaErrorInvalidResourceHandle
                           : cudaErrorInvalidValue);
  auto It = St.Streams.find(Stream);
  *Priority = It == St.Streams.end() ? 0 : It->second->Priority;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamGetId(cudaStream_t Stream,
                                      unsigned long long *Id) {
  Lock L(S().Mu);
  if (!Id)
    return setErr(cudaErrorInvalidValue);
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  *Id = reinterpret_cast<uintptr_t>(Stream);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t Stream, int *Device) {
  Lock L(S().Mu);
  if (!Device)
    return setErr(cudaErrorInvalidValue);
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  *Device = 0;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *Least,
                                                       int *Greatest) {
  if (Least)
    *Least = 0;
  if (Greatest)
    *Greatest = -5;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t Stream, cudaHostFn_t Fn,
                                         void *UserData) {
  {
    Lock L(S().Mu);
    CHECK_STICKY();
    if (!validStream(Stream))
      return setErr(cudaErrorInvalidResourceHandle);
    if (!Fn)
      return setErr(cudaErrorInvalidValue);
  }
  Fn(UserData);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t Stream,
                                            cudaStreamCallback_t Callback,
                                            void *UserData,
                                            unsigned int Flags) {
  cudaError_t Status;
  {
    Lock L(S().Mu);
    if (!validStream(Stream))
      return setErr(cudaErrorInvalidResourceHandle);
    if (!Callback || Flags)
      return setErr(cudaErrorInvalidValue);
    Status = S().Sticky;
  }
  Callback(Stream, Status, UserData);
  return cudaSuccess;
}

//===-- events ------------------------------------------------------------===//

WS_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Event,
                                               unsigned int Flags) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!Event || Flags > (cudaEventBlockingSync | cudaEventDisableTiming |
                         cudaEventInterprocess))
    return setErr(cudaErrorInvalidValue);
  auto R = std::make_unique<EventRec>();
  R->Flags = Flags;
  auto *H = reinterpret_cast<cudaEvent_t>(R.get());
  St.Events[H] = std::move(R);
  *Event = H;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *Event) {
  return cudaEventCreateWithFlags(Event, cudaEventDefault);
}

WS_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t Event,
                                               cudaStream_t Stream,
                                               unsigned int Flags) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  auto It = St.Events.find(Event);
  if (It == St.Events.end() || !validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  (void)Flags;
  It->second->Recorded = true;
  It->second->T = std::chrono::steady_clock::now();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream) {
  return cudaEventRecordWithFlags(Event, Stream, 0);
}

WS_EXPORT cudaError_t cudaEventQuery(cudaEvent_t Event) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!St.Events.count(Event))
    return setErr(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!St.Events.count(Event))
    return setErr(cudaErrorInvalidResourceHandle);
  syncPoint();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t Event) {
  State &St = S();
  Lock L(St.Mu);
  if (!St.Events.count(Event))
    return setErr(cudaErrorInvalidResourceHandle);
  St.Events.erase(Event);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                           cudaEvent_t End) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!Ms)
    return setErr(cudaErrorInvalidValue);
  auto A = St.Events.find(Start), B = St.Events.find(End);
  if (A == St.Events.end() || B == St.Events.end())
    return setErr(cudaErrorInvalidResourceHandle);
  if ((A->second->Flags | B->second->Flags) & cudaEventDisableTiming)
    return setErr(cudaErrorInvalidResourceHandle);
  if (!A->second->Recorded || !B->second->Recorded)
    return setErr(cudaErrorInvalidResourceHandle);
  *Ms = std::chrono::duration<float, std::milli>(B->second->T - A->second->T)
            .count();
  return cudaSuccess;
}

//===-- per-thread default stream variants (--default-stream per-thread) --===//

WS_ALIAS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize, cudaError_t,
         cudaStream_t)
WS_ALIAS(cudaStreamQuery_ptsz, cudaStreamQuery, cudaError_t, cudaStream_t)
WS_ALIAS(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent, cudaError_t,
         cudaStream_t, cudaEvent_t, unsigned int)
WS_ALIAS(cudaStreamGetFlags_ptsz, cudaStreamGetFlags, cudaError_t, cudaStream_t,
         unsigned int *)
WS_ALIAS(cudaStreamGetPriority_ptsz, cudaStreamGetPriority, cudaError_t,
         cudaStream_t, int *)
WS_ALIAS(cudaEventRecord_ptsz, cudaEventRecord, cudaError_t, cudaEvent_t,
         cudaStream_t)
WS_ALIAS(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags, cudaError_t,
         cudaEvent_t, cudaStream_t, unsigned int)
WS_ALIAS(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc, cudaError_t, cudaStream_t,
         cudaHostFn_t, void *)
WS_ALIAS(cudaStreamAddCallback_ptsz, cudaStreamAddCallback, cudaError_t,
         cudaStream_t, cudaStreamCallback_t, void *, unsigned int)
WS_ALIAS(cudaStreamGetId_ptsz, cudaStreamGetId, cudaError_t, cudaStream_t,
         unsigned long long *)
WS_ALIAS(cudaStreamGetDevice_ptsz, cudaStreamGetDevice, cudaError_t,
         cudaStream_t, int *)
