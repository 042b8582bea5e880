import Foundation
import Testing
@testable import SelectLogStore

/// The recorder's engine lock: on Linux an atomic word released by a plain store, whose
/// waiters poll. What it must keep: one holder at a time, every waiter served.
@Suite("EngineLock: one holder at a time, waiters served")
struct EngineLockTests {
    @Test("increments that are not atomic, made by four threads under the lock, are never lost")
    func exclusion() {
        // A read, some work, then a write of what was read plus one, in two fields:
        // without exclusion, threads overwrite each other's updates and the two disagree.
        struct Counts { var a = 0; var b = 0 }
        let box = EngineLock(Counts())
        let perThread = 50_000
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            for i in 0..<perThread {
                if (i + k) % 2 == 0 {
                    box.withLockedValue { c in
                        let a = c.a
                        c.b = EngineLockTests.work(c.b) + 1
                        c.a = a + 1
                    }
                } else {
                    let c = box.lock()
                    let a = c.pointee.a
                    c.pointee.b = EngineLockTests.work(c.pointee.b) + 1
                    c.pointee.a = a + 1
                    box.unlock()
                }
            }
        }
        let counts = box.withLockedValue { $0 }
        #expect(counts.a == 4 * perThread)
        #expect(counts.b == counts.a)
    }

    /// `value`, after work the optimizer cannot see through or move.
    @inline(never)
    static func work(_ value: Int) -> Int {
        var x = value
        for i in 0..<20 { x = x &* 31 &+ i }
        return x == 7 ? x : value
    }

    @Test("a waiter gets the lock after a holder that keeps it past the spinning (sleeps 30 ms)")
    func slowHolder() {
        let box = EngineLock([Int]())
        let held = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.withLockedValue { log in
                held.signal()
                Thread.sleep(forTimeInterval: 0.03)
                log.append(1)
            }
        }
        held.wait()
        Thread.detachNewThread {
            box.withLockedValue { $0.append(2) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "the waiter must not wait forever")
        #expect(box.withLockedValue { $0 } == [1, 2], "the waiter ran after the holder released the lock")
    }
}
