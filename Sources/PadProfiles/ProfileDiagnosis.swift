/// Every error found in one profile file, in document order (`padbench profiles validate`), or
/// the profile when there is none.
///
/// ```swift
/// let diagnosis = ProfileLoader(catalogue: known).diagnose(file: path)
/// for error in diagnosis.errors { print(error) } // file:line:column: message
/// ```
package struct ProfileDiagnosis: Sendable {
    /// The profile; nil when there are errors.
    package var profile: Profile?
    package var errors: [ProfileError]

    package init(profile: Profile? = nil, errors: [ProfileError]) {
        self.profile = profile
        self.errors = errors
    }

    /// The profile, or the first error counting the others (``ProfileError/moreErrors``): the one
    /// line `bench` prints.
    package func profileOrFirstError() throws(ProfileError) -> Profile {
        if var first = errors.first {
            first.moreErrors = errors.count - 1
            throw first
        }
        guard let profile else { throw ProfileError(file: "", line: 0, column: 0, "no profile") }
        return profile
    }
}
